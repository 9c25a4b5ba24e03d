// The edit view's inputs, one per attribute type, generated from the
// schema. Each editor reads and writes one key of a plain state object;
// toPayload turns the state into the write's data.
import {h, append, replace, clear, field, button, select, nextId, dialog, fmtSize, moveButtons} from './dom.js';
import {blocksEditor} from './blocks.js';
import {get, qs} from './api.js';
import {attributes, componentByUID, typeByUID, mainField, isSingle} from './schema.js';
import {pickMedia, uploadFiles} from './media.js';

const TO_MANY = ['oneToMany', 'manyToMany'];
const SYSTEM = ['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale', 'localizations', 'createdBy', 'updatedBy'];

// fromDoc copies a read document into an edit state: relations become
// [{documentId, label}], media [file], components and zones deep copies.
export function fromDoc(s, attrs, doc) {
  const out = {};
  doc = doc || {};
  for (const [name, a] of Object.entries(attrs)) {
    const v = doc[name];
    switch (a.type) {
    case 'relation': {
      const t = typeByUID(s, a.target);
      const mf = t ? mainField(t) : 'documentId';
      const list = v == null ? [] : Array.isArray(v) ? v : [v];
      out[name] = list.filter(Boolean).map(d => ({documentId: d.documentId, label: String(d[mf] ?? d.documentId)}));
      break;
    }
    case 'media':
      out[name] = v == null ? [] : (Array.isArray(v) ? v : [v]);
      break;
    case 'component': {
      const c = componentByUID(s, a.component);
      const ca = attributes(c);
      if (a.repeatable) out[name] = (v || []).map(x => fromDoc(s, ca, x));
      else out[name] = v ? fromDoc(s, ca, v) : null;
      break;
    }
    case 'dynamiczone':
      out[name] = (v || []).map(x => ({__component: x.__component, ...fromDoc(s, attributes(componentByUID(s, x.__component)), x)}));
      break;
    default:
      out[name] = v === undefined ? (a.default ?? null) : v;
    }
  }
  return out;
}

// toPayload: the state as a write's data.
export function toPayload(s, attrs, st) {
  const out = {};
  for (const [name, a] of Object.entries(attrs)) {
    if (SYSTEM.includes(name) || !(name in st)) continue;
    const v = st[name];
    switch (a.type) {
    case 'relation':
      if (String(a.relation || '').startsWith('morph')) continue;
      out[name] = {set: (v || []).map(r => r.documentId)};
      break;
    case 'media':
      out[name] = a.multiple ? (v || []).map(f => f.id) : ((v && v[0]) ? v[0].id : null);
      break;
    case 'component': {
      const ca = attributes(componentByUID(s, a.component));
      out[name] = a.repeatable ? (v || []).map(x => toPayload(s, ca, x)) : (v ? toPayload(s, ca, v) : null);
      break;
    }
    case 'dynamiczone':
      out[name] = (v || []).map(x => ({__component: x.__component, ...toPayload(s, attributes(componentByUID(s, x.__component)), x)}));
      break;
    case 'password':
      if (v) out[name] = v;
      break;
    default:
      // Private values are never read back: empty keeps the stored one.
      if (a.private && (v == null || v === '')) break;
      out[name] = v === '' && a.type !== 'string' && a.type !== 'text' && a.type !== 'richtext' ? null : v;
    }
  }
  return out;
}

// form renders the editors of attrs over st; path prefixes error paths.
export function form(ctx, attrs, st, path = []) {
  const box = h('div', {class: 'grid2'});
  for (const [name, a] of Object.entries(attrs)) {
    if (SYSTEM.includes(name)) continue;
    box.append(editor(ctx, name, a, st, path.concat(name)));
  }
  return box;
}

function label(name, a) {
  return name + (a.type === 'richtext' ? ' (Markdown)' : a.type === 'blocks' ? ' (Blocks)' : '');
}

function editor(ctx, name, a, st, path) {
  const p = path.join('.');
  const opts = {required: a.required, path: p};
  const set = v => { st[name] = v; ctx.dirty(); };
  let input;
  switch (a.type) {
  case 'string': case 'email': case 'password':
    input = h('input', {type: a.type === 'string' ? 'text' : a.type, value: a.type === 'password' ? '' : (st[name] ?? ''),
      maxlength: a.maxLength, minlength: a.minLength, autocomplete: a.type === 'password' ? 'new-password' : 'off',
      oninput: e => set(e.target.value)});
    return field(label(name, a), input, {...opts, hint: a.type === 'password' ? 'Leave empty to keep the current password.'
      : a.private ? 'Private: the API never shows it; leave empty to keep the stored value.' : null});
  case 'uid': {
    input = h('input', {type: 'text', value: st[name] ?? '', oninput: e => set(e.target.value), pattern: '[A-Za-z0-9\\-_.~]*'});
    const regen = a.targetField ? button('Regenerate', () => {
      input.value = slugify(String(st[a.targetField] ?? ''));
      set(input.value);
    }, {class: 'secondary small', 'aria-label': `Regenerate ${name} from ${a.targetField}`}) : null;
    const f = field(label(name, a), input, {...opts, hint: a.targetField ? `Generated from ${a.targetField}.` : null});
    if (regen) f.insertBefore(h('div', {class: 'row'}, regen), f.querySelector('.field-error'));
    return f;
  }
  case 'text':
    input = h('textarea', {oninput: e => set(e.target.value), maxlength: a.maxLength}, st[name] ?? '');
    return field(label(name, a), input, {...opts, wide: true});
  case 'richtext':
    return markdownEditor(name, a, st, set, opts);
  case 'blocks':
    return blocksEditor(ctx, name, label(name, a), st, opts);
  case 'integer': case 'float': case 'decimal':
    input = h('input', {type: 'number', step: a.type === 'integer' ? '1' : 'any', min: a.min, max: a.max, value: st[name] ?? '',
      oninput: e => set(e.target.value === '' ? null : Number(e.target.value))});
    return field(label(name, a), input, opts);
  case 'biginteger':
    input = h('input', {type: 'text', inputmode: 'numeric', pattern: '-?[0-9]*', value: st[name] ?? '', oninput: e => set(e.target.value === '' ? null : e.target.value)});
    return field(label(name, a), input, opts);
  case 'date':
    input = h('input', {type: 'date', value: st[name] ?? '', oninput: e => set(e.target.value || null)});
    return field(label(name, a), input, opts);
  case 'time':
    input = h('input', {type: 'time', step: '1', value: (st[name] || '').slice(0, 8), oninput: e => set(e.target.value ? (e.target.value.length === 5 ? e.target.value + ':00' : e.target.value) + '.000' : null)});
    return field(label(name, a), input, opts);
  case 'datetime': case 'timestamp':
    input = h('input', {type: 'datetime-local', step: '1', value: toLocalInput(st[name]), oninput: e => set(e.target.value ? new Date(e.target.value).toISOString() : null)});
    return field(label(name, a), input, {...opts, hint: 'In your local time.'});
  case 'boolean':
    input = select([['', '—'], ['true', 'True'], ['false', 'False']], st[name] == null ? '' : String(st[name]), {onchange: e => set(e.target.value === '' ? null : e.target.value === 'true')});
    return field(label(name, a), input, opts);
  case 'enumeration':
    input = select([['', 'Choose here'], ...(a.enum || []).map(v => [v, v])], st[name], {onchange: e => set(e.target.value || null)});
    return field(label(name, a), input, opts);
  case 'json': {
    input = h('textarea', {class: 'code', spellcheck: 'false'}, st[name] == null ? '' : JSON.stringify(st[name], null, 2));
    const f = field(label(name, a), input, {...opts, wide: true, hint: 'JSON'});
    input.addEventListener('input', () => {
      const err = f.querySelector('.field-error');
      if (input.value.trim() === '') { err.textContent = ''; f.classList.remove('invalid'); ctx.bad.delete(p); set(null); return; }
      try { set(JSON.parse(input.value)); err.textContent = ''; f.classList.remove('invalid'); ctx.bad.delete(p); } catch (e) { err.textContent = 'Invalid JSON: ' + e.message; f.classList.add('invalid'); ctx.bad.add(p); }
    });
    return f;
  }
  case 'media':
    return mediaEditor(ctx, name, a, st, opts);
  case 'relation':
    return relationEditor(ctx, name, a, st, opts);
  case 'component':
    return componentEditor(ctx, name, a, st, path);
  case 'dynamiczone':
    return zoneEditor(ctx, name, a, st, path);
  default:
    return h('div', {class: 'field'}, h('p', {class: 'label'}, name), h('p', {class: 'muted'}, `The ${a.type} type is not editable here.`));
  }
}

export function slugify(s) {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

function toLocalInput(iso) {
  if (!iso) return '';
  const d = new Date(iso);
  if (isNaN(d)) return '';
  const pad = n => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

// markdownEditor: a textarea with a preview built from DOM nodes (a small
// subset of Markdown: headings, lists, quotes, code, emphasis, links).
function markdownEditor(name, a, st, set, opts) {
  const ta = h('textarea', {oninput: e => set(e.target.value), rows: 8}, st[name] ?? '');
  const preview = h('div', {class: 'md-preview', hidden: true});
  const write = button('Write', () => toggle(false), {class: 'secondary small', 'aria-pressed': 'true'});
  const prev = button('Preview', () => toggle(true), {class: 'secondary small', 'aria-pressed': 'false'});
  function toggle(on) {
    preview.hidden = !on; ta.hidden = on;
    write.setAttribute('aria-pressed', String(!on)); prev.setAttribute('aria-pressed', String(on));
    if (on) replace(preview, renderMarkdown(ta.value));
  }
  const f = field(label(name, a), ta, {...opts, wide: true});
  f.insertBefore(h('div', {class: 'tabs'}, write, prev), ta);
  f.insertBefore(preview, f.querySelector('.field-error'));
  return f;
}

export function renderMarkdown(src) {
  const out = [];
  let list = null, code = null;
  for (const line of String(src).split('\n')) {
    if (code) { if (line.startsWith('```')) { out.push(h('pre', null, h('code', null, code.join('\n')))); code = null; } else code.push(line); continue; }
    if (line.startsWith('```')) { code = []; list = null; continue; }
    let m;
    if ((m = line.match(/^(#{1,6})\s+(.*)$/))) { list = null; out.push(h('h' + m[1].length, null, inline(m[2]))); }
    else if ((m = line.match(/^\s*[-*]\s+(.*)$/))) { if (!list) { list = h('ul'); out.push(list); } list.append(h('li', null, inline(m[1]))); }
    else if ((m = line.match(/^>\s?(.*)$/))) { list = null; out.push(h('blockquote', null, inline(m[1]))); }
    else if (line.trim() === '') list = null;
    else { list = null; out.push(h('p', null, inline(line))); }
  }
  if (code) out.push(h('pre', null, h('code', null, code.join('\n'))));
  return out;
}

function inline(text) {
  const parts = [];
  const re = /(\*\*([^*]+)\*\*|\*([^*]+)\*|`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\))/g;
  let last = 0, m;
  while ((m = re.exec(text))) {
    parts.push(text.slice(last, m.index));
    if (m[2]) parts.push(h('strong', null, m[2]));
    else if (m[3]) parts.push(h('em', null, m[3]));
    else if (m[4]) parts.push(h('code', null, m[4]));
    else {
      const safe = /^(https?:|mailto:|\/(?!\/))/i.test(m[6]);
      parts.push(safe ? h('a', {href: m[6], rel: 'noopener noreferrer', target: '_blank'}, m[5]) : m[5]);
    }
    last = re.lastIndex;
  }
  parts.push(text.slice(last));
  return parts;
}

// mediaEditor: the chosen files, a picker from the library and an upload
// in place.
function mediaEditor(ctx, name, a, st, opts) {
  const files = st[name] || (st[name] = []);
  const shown = h('div', {class: 'thumbs'});
  const draw = () => {
    replace(shown, files.length ? files.map((f, i) => h('figure', null,
      (f.mime || '').startsWith('image/') ? h('img', {src: thumbURL(f), alt: f.alternativeText || f.name}) : h('div', {class: 'muted'}, f.ext || 'file'),
      h('figcaption', null, f.name),
      button('Remove', () => { files.splice(i, 1); draw(); ctx.dirty(); }, {class: 'link small', 'aria-label': `Remove ${f.name} from ${name}`}))) : h('p', {class: 'muted'}, 'No file.'));
  };
  draw();
  const choose = button(a.multiple ? 'Add from the library' : 'Choose from the library', async () => {
    const picked = await pickMedia({multiple: a.multiple, allowedTypes: a.allowedTypes});
    if (!picked.length) return;
    if (a.multiple) { for (const f of picked) if (!files.some(x => x.id === f.id)) files.push(f); } else files.splice(0, files.length, picked[0]);
    draw(); ctx.dirty();
  }, {class: 'secondary small'});
  const up = h('input', {type: 'file', multiple: !!a.multiple, class: 'sr', id: nextId('up')});
  up.addEventListener('change', async () => {
    const status = h('span', {class: 'muted', role: 'status'}, 'Uploading…');
    bar.append(status);
    try {
      const added = await uploadFiles([...up.files], frac => { status.textContent = `Uploading… ${Math.round(frac * 100)}%`; });
      if (a.multiple) files.push(...added); else files.splice(0, files.length, added[0]);
      draw(); ctx.dirty();
    } catch (e) { status.textContent = e.message; return; }
    status.remove();
    up.value = '';
  });
  const upLabel = h('label', {for: up.id, class: 'button secondary small', tabindex: '0',
    onkeydown: e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); up.click(); } }}, 'Upload a file');
  const bar = h('div', {class: 'row'}, choose, upLabel, up);
  return h('fieldset', {class: 'field wide', dataset: {path: opts.path}},
    h('legend', null, name + (a.required ? ' *' : '') + (a.multiple ? ' (multiple)' : '')), shown, bar, h('p', {class: 'field-error', role: 'alert'}));
}

export function thumbURL(f) {
  let fm = f.formats;
  if (typeof fm === 'string') { try { fm = JSON.parse(fm); } catch { fm = null; } }
  return (fm && fm.thumbnail && fm.thumbnail.url) || f.url;
}

// relationEditor: a searchable picker; to-many relations keep an order.
function relationEditor(ctx, name, a, st, opts) {
  const target = typeByUID(ctx.schema, a.target);
  const many = TO_MANY.includes(a.relation);
  const chosen = st[name] || (st[name] = []);
  if (String(a.relation || '').startsWith('morph') || !target) {
    // Polymorphic relations, and relations to Strapi's own types (users,
    // files, admins), which the Content Manager does not list.
    const what = String(a.relation || '').startsWith('morph') ? 'Polymorphic relations' : `Relations to ${a.target}`;
    return h('div', {class: 'field'}, h('p', {class: 'label'}, name), h('p', {class: 'muted'}, `${what} are edited through the API.`));
  }
  const mf = mainField(target);
  const listEl = h('ul', {class: 'rel-list'});
  const draw = () => {
    replace(listEl, chosen.map((r, i) => h('li', null, h('span', null, r.label),
      many ? moveButtons(chosen, i, () => { draw(); ctx.dirty(); }, r.label)
        : button('Remove', () => { chosen.splice(i, 1); draw(); ctx.dirty(); }, {class: 'secondary small', 'aria-label': `Remove ${r.label}`}))));
  };
  draw();
  const results = h('ul', {class: 'results', role: 'listbox', 'aria-label': `Results for ${name}`});
  const search = h('input', {type: 'search', placeholder: `Search ${target.schema.info?.displayName || a.target}…`, autocomplete: 'off'});
  let timer;
  const run = async () => {
    const q = search.value.trim();
    const base = `/admin/content-manager/${isSingle(target) ? 'single-types' : 'collection-types'}/${encodeURIComponent(a.target)}`;
    const params = {pagination: {pageSize: 10}, status: target.schema.options?.draftAndPublish ? 'draft' : undefined};
    if (q && mf !== 'documentId') params.filters = {[mf]: {$containsi: q}};
    if (mf !== 'documentId') params.fields = [mf];
    try {
      const res = await get(base + qs(params));
      const docs = (res.data || []).filter(d => !chosen.some(c => c.documentId === d.documentId));
      replace(results, docs.map(d => h('li', null, button(String(d[mf] ?? d.documentId), () => {
        const item = {documentId: d.documentId, label: String(d[mf] ?? d.documentId)};
        if (many) chosen.push(item); else chosen.splice(0, chosen.length, item);
        search.value = ''; clear(results); draw(); ctx.dirty(); search.focus();
      }, {role: 'option'}))));
      if (!docs.length && q) results.append(h('li', {class: 'muted'}, 'No match.'));
    } catch (e) { replace(results, h('li', {class: 'error'}, e.message)); }
  };
  search.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(run, 200); });
  search.addEventListener('focus', () => { if (!results.firstChild) run(); });
  search.addEventListener('keydown', e => {
    if (e.key === 'ArrowDown') { e.preventDefault(); results.querySelector('button')?.focus(); }
    if (e.key === 'Escape') clear(results);
  });
  results.addEventListener('keydown', e => {
    const b = e.target.closest('li');
    if (e.key === 'ArrowDown') { e.preventDefault(); b?.nextElementSibling?.querySelector('button')?.focus(); }
    if (e.key === 'ArrowUp') { e.preventDefault(); (b?.previousElementSibling?.querySelector('button') || search).focus(); }
    if (e.key === 'Escape') { clear(results); search.focus(); }
  });
  const f = field(`${name} (${many ? 'relations to' : 'relation to'} ${target.schema.info?.displayName || a.target})`, search, {...opts, wide: true});
  f.insertBefore(listEl, search);
  f.insertBefore(results, f.querySelector('.field-error'));
  return f;
}

function componentEditor(ctx, name, a, st, path) {
  const comp = componentByUID(ctx.schema, a.component);
  const ca = attributes(comp);
  const cname = comp ? (comp.schema.info?.displayName || a.component) : a.component;
  const box = h('div');
  const fs = h('fieldset', {class: 'field wide', dataset: {path: path.join('.')}}, h('legend', null, `${name} (${cname}${a.repeatable ? ', repeatable' : ''})`), box, h('p', {class: 'field-error', role: 'alert'}));
  const draw = () => {
    clear(box);
    if (a.repeatable) {
      const items = st[name] || (st[name] = []);
      items.forEach((it, i) => box.append(h('div', {class: 'item'},
        h('div', {class: 'item-head'}, h('strong', null, `${cname} ${i + 1}`), moveButtons(items, i, () => { draw(); ctx.dirty(); }, `${cname} ${i + 1}`)),
        form(ctx, ca, it, path.concat(i)))));
      box.append(button(`Add an entry to ${name}`, () => { items.push(fromDoc(ctx.schema, ca, {})); draw(); ctx.dirty(); }, {class: 'secondary small'}));
    } else if (st[name]) {
      box.append(form(ctx, ca, st[name], path), button(`Remove ${name}`, () => { st[name] = null; draw(); ctx.dirty(); }, {class: 'secondary small'}));
    } else {
      box.append(button(`Add ${name}`, () => { st[name] = fromDoc(ctx.schema, ca, {}); draw(); ctx.dirty(); }, {class: 'secondary small'}));
    }
  };
  draw();
  return fs;
}

function zoneEditor(ctx, name, a, st, path) {
  const items = st[name] || (st[name] = []);
  const box = h('div');
  const choices = (a.components || []).map(uid => [uid, componentByUID(ctx.schema, uid)?.schema.info?.displayName || uid]);
  const pick = select(choices, choices[0]?.[0], {'aria-label': `Component to add to ${name}`});
  const draw = () => {
    clear(box);
    items.forEach((it, i) => {
      const ca = attributes(componentByUID(ctx.schema, it.__component));
      box.append(h('div', {class: 'item'}, h('div', {class: 'item-head'}, h('strong', null, it.__component), moveButtons(items, i, () => { draw(); ctx.dirty(); }, `${it.__component} ${i + 1}`)),
        form(ctx, ca, it, path.concat(i))));
    });
  };
  draw();
  const add = button('Add a component', () => {
    const uid = pick.value;
    items.push({__component: uid, ...fromDoc(ctx.schema, attributes(componentByUID(ctx.schema, uid)), {})});
    draw(); ctx.dirty();
  }, {class: 'secondary small'});
  return h('fieldset', {class: 'field wide', dataset: {path: path.join('.')}}, h('legend', null, `${name} (dynamic zone)`), box, h('div', {class: 'row'}, pick, add), h('p', {class: 'field-error', role: 'alert'}));
}

export {fmtSize, dialog, append};
