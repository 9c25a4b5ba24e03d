// The schema as the admin API stores it: content-types and components
// (their schema files' JSON), reloaded after every builder change.
import {get} from './api.js';

let cache = null;

export async function loadSchema(force) {
  if (cache && !force) return cache;
  const [types, comps] = await Promise.all([get('/admin/content-types'), get('/admin/components')]);
  cache = {
    types: (types.data || []).map(d => ({...d, schema: d.schema || {}})),
    components: (comps.data || []).map(d => ({...d, schema: d.schema || {}})),
  };
  return cache;
}

export function invalidateSchema() { cache = null; }

export const isSingle = t => t.schema.kind === 'singleType';
export const displayName = t => (t.schema.info && (t.schema.info.displayName || t.schema.info.singularName)) || t.uid;
export const hasDP = t => !!(t.schema.options && t.schema.options.draftAndPublish);
export const isLocalized = t => !!(t.schema.pluginOptions && t.schema.pluginOptions.i18n && t.schema.pluginOptions.i18n.localized);
export const attributes = t => (t && t.schema.attributes) || {};

export function typeByUID(s, uid) { return s.types.find(t => t.uid === uid); }
export function componentByUID(s, uid) { return s.components.find(c => c.uid === uid); }

// mainField: the attribute a document is shown by.
export function mainField(t) {
  const attrs = attributes(t);
  for (const n of ['title', 'name', 'label', 'slug', 'username', 'email']) if (attrs[n]) return n;
  const first = Object.entries(attrs).find(([, a]) => ['string', 'uid', 'email', 'text'].includes(a.type));
  return first ? first[0] : 'documentId';
}

export const TEXTUAL = ['string', 'text', 'email', 'uid', 'richtext'];
export const SCALAR = ['string', 'text', 'email', 'uid', 'integer', 'biginteger', 'float', 'decimal', 'date', 'time',
  'datetime', 'timestamp', 'boolean', 'enumeration'];

// populate builds a populate tree that reads every relation, media,
// component and dynamic zone of a type (or component), deep through
// components, so the edit view has everything it shows.
export function populateOf(s, attrs, depth = 0) {
  const out = {};
  for (const [name, a] of Object.entries(attrs)) {
    if (a.type === 'relation' || a.type === 'media') out[name] = true;
    else if (a.type === 'component') {
      const c = componentByUID(s, a.component);
      const inner = c && depth < 5 ? populateOf(s, attributes(c), depth + 1) : {};
      out[name] = Object.keys(inner).length ? {populate: inner} : true;
    } else if (a.type === 'dynamiczone') {
      const on = {};
      for (const uid of a.components || []) {
        const c = componentByUID(s, uid);
        const inner = c && depth < 5 ? populateOf(s, attributes(c), depth + 1) : {};
        on[uid] = Object.keys(inner).length ? {populate: inner} : true;
      }
      out[name] = {on};
    }
  }
  return out;
}
