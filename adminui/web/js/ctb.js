// Content-Type Builder: collection types, single types and components and
// their attributes, through the admin content-types API. A saved change is
// live at once, on every node: no restart, no rebuild.
import {h, replace, clear, field, button, select, checkbox, toast, confirmDialog, dialog} from './dom.js';
import {get, post, put, del, ApiError} from './api.js';
import {loadSchema, invalidateSchema, displayName, isSingle} from './schema.js';
import {slugify} from './fields.js';
import {navigate} from './app.js';

const TYPES = ['string', 'text', 'richtext', 'blocks', 'email', 'password', 'uid', 'integer', 'biginteger', 'float', 'decimal',
  'date', 'time', 'datetime', 'timestamp', 'boolean', 'enumeration', 'json', 'media', 'relation', 'component', 'dynamiczone'];
const RELATIONS = [['oneToOne', 'has one'], ['oneToMany', 'has many'], ['manyToOne', 'belongs to one'], ['manyToMany', 'has and belongs to many']];

const ctbLink = d => `/admin/plugins/content-type-builder/${d.kind === 'component' ? 'components' : 'content-types'}/${d.uid}`;

export async function builder(main, [section, uid]) {
  const s = await loadSchema(true);
  const side = h('nav', {class: 'panel', 'aria-label': 'Types and components'},
    h('h2', null, 'Collection types'), list(s.types.filter(t => !isSingle(t)), 'content-types'),
    h('h2', null, 'Single types'), list(s.types.filter(isSingle), 'content-types'),
    h('h2', null, 'Components'), list(s.components, 'components'),
    h('div', {class: 'row'},
      h('a', {class: 'button secondary', href: '/admin/plugins/content-type-builder/content-types/create'}, 'Create new collection type'),
      h('a', {class: 'button secondary', href: '/admin/plugins/content-type-builder/content-types/create-single'}, 'Create new single type'),
      h('a', {class: 'button secondary', href: '/admin/plugins/content-type-builder/components/create'}, 'Create new component')));
  const body = h('div');
  replace(main, h('div', {class: 'ctb'}, side, body));
  if (!uid) {
    replace(body, h('h1', null, 'Content-Type Builder'),
      h('p', {class: 'lead'}, 'Design your content-types and components. A saved change is live at once, on every node: no restart, no rebuild.'));
    return;
  }
  const comp = section === 'components';
  let def;
  if (uid === 'create' || uid === 'create-single') {
    def = comp ? {uid: '', schema: {collectionName: '', info: {displayName: ''}, options: {}, attributes: {}}}
      : {uid: '', schema: {kind: uid === 'create-single' ? 'singleType' : 'collectionType', collectionName: '', info: {singularName: '', pluralName: '', displayName: ''}, options: {draftAndPublish: true}, attributes: {}}};
    def.isNew = true;
  } else {
    const found = (comp ? s.components : s.types).find(d => d.uid === uid);
    if (!found) { replace(body, h('h1', null, 'Not found'), h('p', null, uid)); return; }
    def = {...found, schema: structuredClone(found.schema)};
    // A rename is applied once, when saved: the next save does not repeat it.
    for (const a of Object.values(def.schema.attributes || {})) delete a.renamedFrom;
  }
  def.kind = comp ? 'component' : 'content-type';
  editor(body, s, def);
}

function list(defs, section) {
  if (!defs.length) return h('p', {class: 'muted'}, 'None yet.');
  return h('ul', {class: 'links'}, defs.map(d => h('li', null, h('a', {href: `/admin/plugins/content-type-builder/${section}/${d.uid}`}, displayName(d)))));
}

function editor(body, s, def) {
  const sc = def.schema;
  sc.attributes = sc.attributes || {};
  const comp = def.kind === 'component';
  const readOnly = def.source === 'file';
  const err = h('p', {class: 'error', role: 'alert'});
  const fields = [];
  const text = (label, get, setv, opts = {}) => {
    const i = h('input', {type: 'text', value: get() || '', disabled: opts.disabled, oninput: e => { setv(e.target.value); opts.after && opts.after(); }});
    fields.push(i);
    return field(label, i, opts);
  };
  let single, plural, collection, uidInput;
  const info = sc.info = sc.info || {};
  const autoNames = () => {
    if (!def.isNew) return;
    const base = slugify(info.displayName || '');
    if (comp) {
      sc.collectionName = 'components_' + (category.value || 'shared').replace(/-/g, '_') + '_' + base.replace(/-/g, '_') + 's';
      def.uid = (category.value || 'shared') + '.' + base;
      uidInput.value = def.uid;
    } else {
      info.singularName = base; info.pluralName = base ? base + 's' : '';
      sc.collectionName = info.pluralName.replace(/-/g, '_');
      single.value = info.singularName; plural.value = info.pluralName;
    }
    collection.value = sc.collectionName;
  };
  const category = h('input', {type: 'text', value: def.isNew ? 'shared' : (def.uid || '').split('.')[0], disabled: !def.isNew, oninput: autoNames});
  const head = h('div', {class: 'grid2'},
    text('Display name', () => info.displayName, v => { info.displayName = v; }, {required: true, after: autoNames, disabled: readOnly}),
    comp ? field('Category', category, {hint: 'Components are named <category>.<name>.'}) : null,
    comp ? (() => { uidInput = h('input', {type: 'text', value: def.uid, disabled: !def.isNew, oninput: e => { def.uid = e.target.value; }}); return field('UID', uidInput); })() : null,
    comp ? null : (() => { single = h('input', {type: 'text', value: info.singularName || '', disabled: !def.isNew, oninput: e => { info.singularName = e.target.value; }}); return field('API ID (singular)', single); })(),
    comp ? null : (() => { plural = h('input', {type: 'text', value: info.pluralName || '', disabled: !def.isNew, oninput: e => { info.pluralName = e.target.value; }}); return field('API ID (plural)', plural); })(),
    (() => { collection = h('input', {type: 'text', value: sc.collectionName || '', disabled: !def.isNew, oninput: e => { sc.collectionName = e.target.value; }}); return field('Table name', collection); })(),
    comp ? null : h('div', {class: 'field'}, h('span', {class: 'label'}, 'Options'),
      checkbox('Draft & publish', !!(sc.options && sc.options.draftAndPublish), v => { sc.options = {...(sc.options || {}), draftAndPublish: v}; }, {disabled: readOnly}),
      checkbox('Localized (i18n)', !!(sc.pluginOptions && sc.pluginOptions.i18n && sc.pluginOptions.i18n.localized), v => {
        sc.pluginOptions = {...(sc.pluginOptions || {}), i18n: {localized: v}};
      }, {disabled: readOnly})));
  const attrsBox = h('div');
  const drawAttrs = () => {
    replace(attrsBox, h('div', {class: 'table-wrap'}, h('table', {'aria-label': 'Fields'},
      h('thead', null, h('tr', null, h('th', {scope: 'col'}, 'Name'), h('th', {scope: 'col'}, 'Type'), h('th', {scope: 'col'}, 'Options'), h('th', {class: 'act'}, h('span', {class: 'sr'}, 'Actions')))),
      h('tbody', null, Object.keys(sc.attributes).length ? Object.entries(sc.attributes).map(([n, a]) => h('tr', null,
        h('td', null, n), h('td', null, describe(a)),
        h('td', null, [a.required && 'required', a.unique && 'unique', a.private && 'private'].filter(Boolean).join(', ')),
        h('td', {class: 'act'}, readOnly ? '' : [
          button('Edit', () => attrDialog(s, def, n, drawAttrs), {class: 'secondary small', 'aria-label': `Edit the field ${n}`}), ' ',
          button('Delete', () => { delete sc.attributes[n]; drawAttrs(); }, {class: 'secondary small', 'aria-label': `Delete the field ${n}`})]))) :
        h('tr', null, h('td', {colspan: 4, class: 'muted'}, 'No field yet.'))))),
    readOnly ? null : button('Add another field', () => attrDialog(s, def, null, drawAttrs), {class: 'secondary'}));
  };
  drawAttrs();
  const base = comp ? '/admin/components' : '/admin/content-types';
  const save = async force => {
    err.textContent = '';
    try {
      const bodyJSON = comp ? {...sc, uid: def.uid} : sc;
      const q = force ? '?force=true' : '';
      const res = def.isNew ? await post(base + q, bodyJSON) : await put(`${base}/${encodeURIComponent(def.uid)}${q}`, bodyJSON);
      invalidateSchema();
      toast(`Saved: live now on every node, no restart needed (schema version ${res.data.version}).`);
      navigate(ctbLink({kind: def.kind, uid: res.data.uid}), true);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409 && !force) {
        const lost = (e.details && (e.details.losses || e.details.errors)) || [];
        if (await confirmDialog('This change loses data', e.message + (lost.length ? ' ' + JSON.stringify(lost).slice(0, 400) : '') + ' Apply it anyway?', 'Apply anyway')) return save(true);
      }
      err.textContent = e.message;
    }
  };
  const remove = async () => {
    if (!await confirmDialog(`Delete ${displayName(def)}?`, 'The type and its table are deleted on every node.', 'Delete')) return;
    try { await del(`${base}/${encodeURIComponent(def.uid)}`); }
    catch (e) {
      if (!(e instanceof ApiError && e.status === 409 && await confirmDialog('This deletes content', e.message + ' Delete anyway?', 'Delete anyway'))) { err.textContent = e.message; return; }
      try { await del(`${base}/${encodeURIComponent(def.uid)}?force=true`); } catch (x) { err.textContent = x.message; return; }
    }
    invalidateSchema(); toast('Deleted'); navigate('/admin/plugins/content-type-builder', true);
  };
  replace(body,
    h('div', {class: 'head'}, h('h1', null, def.isNew ? (comp ? 'Create a component' : isSingle(def) ? 'Create a single type' : 'Create a collection type') : displayName(def)),
      readOnly ? null : h('div', {class: 'row'}, button('Save', () => save(false)), def.isNew ? null : button(comp ? 'Delete the component' : 'Delete the type', remove, {class: 'danger'}))),
    readOnly ? h('p', {class: 'notice warn'}, `Defined in ${def.file || 'a file'}: change the file and restart to edit it.`) :
      h('p', {class: 'muted'}, 'Changes are live as soon as they are saved, on every node: no restart, no rebuild.'),
    err, h('div', {class: 'panel'}, head), h('h2', null, 'Fields'), attrsBox,
    def.isNew ? null : h('p', null, comp ? null : h('a', {href: `/admin/content-manager/${isSingle(def) ? 'single-types' : 'collection-types'}/${def.uid}`}, 'Open in the Content Manager')));
}

function describe(a) {
  switch (a.type) {
  case 'relation': return `relation (${a.relation} → ${a.target})`;
  case 'component': return `component (${a.component}${a.repeatable ? ', repeatable' : ''})`;
  case 'dynamiczone': return `dynamic zone (${(a.components || []).join(', ')})`;
  case 'media': return `media${a.multiple ? ' (multiple)' : ''}`;
  case 'enumeration': return `enumeration (${(a.enum || []).join(', ')})`;
  case 'uid': return `uid${a.targetField ? ` (from ${a.targetField})` : ''}`;
  default: return a.type;
  }
}

function attrDialog(s, def, name, redraw) {
  const sc = def.schema;
  const a = name ? structuredClone(sc.attributes[name]) : {type: 'string'};
  const nameIn = h('input', {type: 'text', value: name || '', required: true, pattern: '[A-Za-z][A-Za-z0-9_]*'});
  const typeSel = select(TYPES, a.type);
  const opts = h('div');
  const err = h('p', {class: 'error', role: 'alert'});
  const drawOpts = () => {
    clear(opts);
    const t = typeSel.value;
    const flag = (label, key) => checkbox(label, !!a[key], v => { if (v) a[key] = true; else delete a[key]; });
    const num = (label, key) => field(label, h('input', {type: 'number', value: a[key] ?? '', oninput: e => { if (e.target.value === '') delete a[key]; else a[key] = Number(e.target.value); }}));
    if (!['relation', 'component', 'dynamiczone', 'media'].includes(t)) opts.append(h('div', {class: 'row'}, flag('Required', 'required'), flag('Unique', 'unique'), flag('Private', 'private')));
    else if (t === 'media' || t === 'component') opts.append(h('div', {class: 'row'}, flag('Required', 'required')));
    if (['string', 'text', 'password', 'email'].includes(t)) opts.append(h('div', {class: 'grid2'}, num('Minimum length', 'minLength'), num('Maximum length', 'maxLength')));
    if (['integer', 'float', 'decimal'].includes(t)) opts.append(h('div', {class: 'grid2'}, num('Minimum', 'min'), num('Maximum', 'max')));
    if (t === 'enumeration') opts.append(field('Values (one a line)', h('textarea', {oninput: e => { a.enum = e.target.value.split('\n').map(x => x.trim()).filter(Boolean); }}, (a.enum || []).join('\n'))));
    if (t === 'uid') {
      const targets = Object.entries(sc.attributes).filter(([, x]) => ['string', 'text'].includes(x.type)).map(([n]) => n);
      opts.append(field('Attached field', select([['', 'None'], ...targets.map(n => [n, n])], a.targetField, {onchange: e => { if (e.target.value) a.targetField = e.target.value; else delete a.targetField; }})));
    }
    if (t === 'media') {
      opts.append(checkbox('Multiple media', !!a.multiple, v => { a.multiple = v; }));
      const allowed = new Set(a.allowedTypes || ['images', 'files', 'videos', 'audios']);
      opts.append(h('fieldset', null, h('legend', null, 'Allowed types'), ['images', 'videos', 'audios', 'files'].map(x => checkbox(x, allowed.has(x), v => { v ? allowed.add(x) : allowed.delete(x); a.allowedTypes = [...allowed]; }))));
    }
    if (t === 'relation') {
      if (!a.relation) a.relation = 'manyToOne';
      if (!a.target && s.types[0]) a.target = s.types[0].uid;
      opts.append(h('div', {class: 'grid2'},
        field('Relation', select(RELATIONS, a.relation, {onchange: e => { a.relation = e.target.value; }})),
        field('Target', select(s.types.map(x => [x.uid, displayName(x)]), a.target, {onchange: e => { a.target = e.target.value; }}))));
    }
    if (t === 'component') {
      if (!a.component && s.components[0]) a.component = s.components[0].uid;
      opts.append(s.components.length ? field('Component', select(s.components.map(x => [x.uid, `${displayName(x)} (${x.uid})`]), a.component, {onchange: e => { a.component = e.target.value; }}))
        : h('p', {class: 'error'}, 'Create a component first.'), checkbox('Repeatable', !!a.repeatable, v => { a.repeatable = v; }));
    }
    if (t === 'dynamiczone') {
      const chosen = new Set(a.components || []);
      opts.append(h('fieldset', null, h('legend', null, 'Components'), s.components.length ? s.components.map(x => checkbox(x.uid, chosen.has(x.uid), v => { v ? chosen.add(x.uid) : chosen.delete(x.uid); a.components = [...chosen]; }))
        : h('p', {class: 'error'}, 'Create a component first.')));
    }
  };
  typeSel.addEventListener('change', () => {
    for (const k of Object.keys(a)) delete a[k];
    a.type = typeSel.value;
    drawOpts();
  });
  drawOpts();
  const d = dialog(name ? `Edit the field ${name}` : 'Add a new field', [
    h('div', {class: 'grid2'}, field('Name', nameIn, {required: true, hint: 'Letters, digits and _; no spaces.'}), field('Type', typeSel)), opts, err],
  [button('Finish', () => {
    const n = nameIn.value.trim();
    if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(n)) { err.textContent = 'The name must start with a letter, then letters, digits or _.'; nameIn.focus(); return; }
    if (n !== name && sc.attributes[n]) { err.textContent = 'A field has that name already.'; nameIn.focus(); return; }
    a.type = typeSel.value;
    const next = {};
    for (const [k, v] of Object.entries(sc.attributes)) {
      if (k === name) next[n] = n !== name ? {...a, renamedFrom: def.isNew ? undefined : name} : a;
      else next[k] = v;
    }
    if (!name) next[n] = a;
    if (next[n].renamedFrom === undefined) delete next[n].renamedFrom;
    sc.attributes = next;
    d.close();
    redraw();
  })]);
  nameIn.focus();
}

export {get};
