// Content Manager: the lists (paged, sorted, filtered and searched by the
// server) and the edit view of documents.
import {h, replace, clear, field, button, select, toast, confirmDialog, fmtDate} from './dom.js';
import {get, post, put, del, qs} from './api.js';
import {loadSchema, typeByUID, displayName, isSingle, hasDP, isLocalized, attributes, mainField, populateOf, SCALAR, TEXTUAL} from './schema.js';
import {fromDoc, toPayload, form} from './fields.js';
import {navigate} from './app.js';

const PAGE_SIZES = [10, 20, 50, 100];
let localesCache;
async function locales() {
  if (!localesCache) { try { localesCache = await get('/admin/i18n/locales'); } catch { localesCache = []; } }
  return localesCache;
}

const base = t => `/admin/content-manager/${isSingle(t) ? 'single-types' : 'collection-types'}/${encodeURIComponent(t.uid)}`;
const link = t => `/admin/content-manager/${isSingle(t) ? 'single-types' : 'collection-types'}/${t.uid}`;

export async function contentManager(main, [kind, uid, documentId], params) {
  const s = await loadSchema();
  if (!uid) return typeIndex(main, s);
  const t = typeByUID(s, uid);
  if (!t) { replace(main, h('h1', null, 'Unknown content-type'), h('p', null, uid)); return; }
  if (isSingle(t)) return editView(main, s, t, null, params);
  if (documentId) return editView(main, s, t, documentId === 'create' ? null : documentId, params);
  return listView(main, s, t, params);
}

function typeIndex(main, s) {
  const col = s.types.filter(t => !isSingle(t)), single = s.types.filter(isSingle);
  const nav = (title, list) => h('section', null, h('h2', null, title),
    list.length ? h('ul', {class: 'links'}, list.map(t => h('li', null, h('a', {href: link(t)}, displayName(t))))) : h('p', {class: 'muted'}, 'None yet.'));
  replace(main, h('h1', null, 'Content Manager'),
    s.types.length ? null : h('p', null, 'No content-type yet: ', h('a', {href: '/admin/plugins/content-type-builder'}, 'create one in the Content-Type Builder'), '.'),
    nav('Collection types', col), nav('Single types', single));
}

function columnsOf(t) {
  const cols = Object.entries(attributes(t)).filter(([, a]) => SCALAR.includes(a.type) && !a.private).slice(0, 4).map(([n]) => n);
  return ['id', ...cols];
}

async function listView(main, s, t, params) {
  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = PAGE_SIZES.includes(Number(params.get('pageSize'))) ? Number(params.get('pageSize')) : 10;
  const sort = params.get('sort') || 'updatedAt:desc';
  const search = params.get('q') || '';
  const filters = JSON.parse(params.get('filters') || '[]');
  const locale = params.get('locale') || '';
  const attrs = attributes(t);
  const cols = columnsOf(t);
  const dp = hasDP(t);
  const loc = isLocalized(t) ? await locales() : [];

  const go = changes => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) { if (v === '' || v == null) p.delete(k); else p.set(k, v); }
    if (!('page' in changes)) p.delete('page');
    navigate(location.pathname + (p.toString() ? '?' + p : ''));
  };

  const q = {pagination: {page, pageSize}, sort: [sort], fields: [...cols.filter(c => c !== 'id'), 'updatedAt', 'createdAt']};
  if (dp) { q.status = 'draft'; q.fields.push('publishedAt'); }
  if (locale) q.locale = locale;
  const and = [];
  const textual = Object.entries(attrs).filter(([, a]) => TEXTUAL.includes(a.type) && !a.private).map(([n]) => n);
  if (search) and.push({$or: textual.length ? textual.map(n => ({[n]: {$containsi: search}})) : [{documentId: {$eq: search}}]});
  for (const f of filters) and.push({[f.field]: {[f.op]: f.op === '$null' || f.op === '$notNull' ? true : f.value}});
  if (and.length) q.filters = {$and: and};

  const res = await get(base(t) + qs(q));
  const docs = res.data || [];
  const pg = res.meta.pagination;
  let published = {};
  if (dp && docs.length) {
    const pq = {status: 'published', filters: {documentId: {$in: docs.map(d => d.documentId)}}, fields: ['updatedAt'], pagination: {pageSize: docs.length}};
    if (locale) pq.locale = locale;
    const pr = await get(base(t) + qs(pq));
    for (const d of pr.data || []) published[d.documentId] = d;
  }

  const searchInput = h('input', {type: 'search', name: 'q', value: search});
  const searchForm = h('form', {class: 'row', role: 'search', onsubmit: e => { e.preventDefault(); go({q: searchInput.value.trim()}); }},
    field('Search', searchInput), h('button', {type: 'submit', class: 'secondary'}, 'Search'));

  // The filter builder: attribute, operator, value.
  const filterable = Object.entries(attrs).filter(([, a]) => SCALAR.includes(a.type) && !a.private).map(([n]) => n);
  const fField = select(['id', 'documentId', ...filterable, 'createdAt', 'updatedAt'], filterable[0] || 'id');
  const fOp = select([['$eq', 'is'], ['$ne', 'is not'], ['$containsi', 'contains'], ['$gt', 'is greater than'], ['$lt', 'is lower than'], ['$null', 'is empty'], ['$notNull', 'is not empty']], '$eq');
  const fVal = h('input', {type: 'text'});
  const filterForm = h('form', {class: 'row', onsubmit: e => {
    e.preventDefault();
    go({filters: JSON.stringify([...filters, {field: fField.value, op: fOp.value, value: fVal.value}])});
  }}, field('Filter on', fField), field('Operator', fOp), field('Value', fVal), h('button', {type: 'submit', class: 'secondary'}, 'Add filter'));
  const chips = filters.length ? h('div', {class: 'chips', 'aria-label': 'Filters'}, filters.map((f, i) =>
    h('span', {class: 'chip'}, `${f.field} ${f.op} ${f.op === '$null' || f.op === '$notNull' ? '' : f.value}`,
      button('×', () => go({filters: filters.length > 1 ? JSON.stringify(filters.filter((_, j) => j !== i)) : ''}), {class: 'link small', 'aria-label': `Remove filter on ${f.field}`})))) : null;

  const localeSel = loc.length ? field('Locale', select([['', 'Default locale'], ...loc.map(l => [l.code, `${l.name || l.code}`])], locale, {onchange: e => go({locale: e.target.value})})) : null;

  const [sf, sd] = sort.split(':');
  const th = c => {
    const cur = sf === c;
    const next = cur && sd === 'asc' ? 'desc' : 'asc';
    return h('th', {scope: 'col', 'aria-sort': cur ? (sd === 'asc' ? 'ascending' : 'descending') : null},
      button(c + (cur ? (sd === 'asc' ? ' ▲' : ' ▼') : ''), () => go({sort: `${c}:${next}`}), {'aria-label': `Sort on ${c} ${next === 'asc' ? 'ascending' : 'descending'}`}));
  };
  const statusOf = d => {
    const p = published[d.documentId];
    if (!p) return ['draft', 'Draft'];
    return p.updatedAt && d.updatedAt && d.updatedAt > p.updatedAt ? ['modified', 'Modified'] : ['published', 'Published'];
  };
  const table = h('table', {'aria-label': `${displayName(t)} entries`},
    h('thead', null, h('tr', null, cols.map(th), th('updatedAt'), dp ? h('th', {scope: 'col'}, 'Status') : null, h('th', {scope: 'col', class: 'act'}, h('span', {class: 'sr'}, 'Actions')))),
    h('tbody', null, docs.length ? docs.map(d => {
      const href = link(t) + '/' + d.documentId + (locale ? '?locale=' + encodeURIComponent(locale) : '');
      const [cls, lbl] = statusOf(d);
      return h('tr', null, cols.map((c, i) => h('td', null, i === 1 ? h('a', {href}, cell(d[c], attrs[c])) : cell(d[c], attrs[c]))),
        h('td', null, fmtDate(d.updatedAt)),
        dp ? h('td', null, h('span', {class: 'badge ' + cls}, lbl)) : null,
        h('td', {class: 'act'}, h('a', {href, 'aria-label': `Edit ${d[mainField(t)] ?? d.documentId}`}, 'Edit')));
    }) : h('tr', null, h('td', {colspan: cols.length + 3, class: 'muted'}, 'No entry found.'))));
  const pager = h('div', {class: 'pager'},
    h('span', {class: 'muted'}, `${pg.total} ${pg.total === 1 ? 'entry' : 'entries'} · page ${pg.page} of ${Math.max(1, pg.pageCount)}`),
    field('Entries per page', select(PAGE_SIZES, pageSize, {onchange: e => go({pageSize: e.target.value})})),
    button('Previous', () => go({page: page - 1}), {class: 'secondary', disabled: page <= 1}),
    button('Next', () => go({page: page + 1}), {class: 'secondary', disabled: page >= pg.pageCount}));

  replace(main,
    h('div', {class: 'head'}, h('h1', null, displayName(t)), h('a', {class: 'button', href: link(t) + '/create' + (locale ? '?locale=' + encodeURIComponent(locale) : '')}, 'Create new entry')),
    h('div', {class: 'toolbar'}, searchForm, localeSel), h('div', {class: 'toolbar'}, filterForm), chips,
    h('div', {class: 'table-wrap'}, table, pager));
}

function cell(v, a) {
  if (v == null) return '';
  if (a && (a.type === 'datetime' || a.type === 'timestamp')) return fmtDate(v);
  if (typeof v === 'object') return JSON.stringify(v).slice(0, 80);
  const s = String(v);
  return s.length > 80 ? s.slice(0, 80) + '…' : s;
}

async function editView(main, s, t, documentId, params) {
  const single = isSingle(t);
  const dp = hasDP(t);
  const locale = params.get('locale') || '';
  const loc = isLocalized(t) ? await locales() : [];
  const attrs = attributes(t);
  const populate = populateOf(s, attrs);
  const readQ = {populate: Object.keys(populate).length ? populate : undefined, status: dp ? 'draft' : undefined, locale: locale || undefined};
  let doc = null, pub = null;
  let url = single ? base(t) : documentId ? base(t) + '/' + encodeURIComponent(documentId) : null;
  if (url) {
    try { doc = (await get(url + qs(readQ))).data; } catch (e) { if (e.status !== 404) throw e; }
    if (doc && dp) {
      try { pub = (await get(url + qs({status: 'published', fields: ['updatedAt'], locale: locale || undefined}))).data; } catch (e) { if (e.status !== 404) throw e; }
    }
    // A document without this locale yet: the form makes its translation.
    if (!doc && !single && !(locale && loc.length)) { replace(main, h('h1', null, 'Entry not found'), h('p', null, h('a', {href: link(t)}, 'Back to the list'))); return; }
  }
  const st = fromDoc(s, attrs, doc);
  let dirty = false;
  const saveBtn = button('Save', () => save(false), {class: '', disabled: true});
  const ctx = {schema: s, dirty: () => { dirty = true; saveBtn.disabled = false; }, bad: new Set()};
  const formEl = form(ctx, attrs, st);
  const errorBox = h('p', {class: 'error', role: 'alert'});

  const status = !dp ? null : !doc ? 'Draft' : !pub ? 'Draft' : (doc.updatedAt > pub.updatedAt ? 'Modified' : 'Published');
  const showErrors = err => {
    main.querySelectorAll('.field-error').forEach(e => { e.textContent = ''; });
    main.querySelectorAll('.field.invalid').forEach(e => e.classList.remove('invalid'));
    errorBox.textContent = err.message;
    let first;
    for (const [p, m] of Object.entries(err.fieldErrors ? err.fieldErrors() : {})) {
      const f = main.querySelector(`[data-path="${CSS.escape(p)}"]`);
      if (!f) continue;
      f.classList.add('invalid');
      const fe = f.querySelector(':scope > .field-error');
      if (fe) fe.textContent = m;
      first = first || f;
    }
    (first && first.querySelector('input,textarea,select,button') || errorBox).focus?.();
  };
  const lq = locale ? '?locale=' + encodeURIComponent(locale) : '';
  // Writes keep to the draft (the content API publishes a write unless
  // told status=draft): Publish is its own action.
  const wq = dp ? (lq ? lq + '&' : '?') + 'status=draft' : lq;
  async function save(andPublish) {
    errorBox.textContent = '';
    if (ctx.bad.size) {
      errorBox.textContent = 'Fix the invalid fields first: ' + [...ctx.bad].join(', ');
      main.querySelector(`[data-path="${CSS.escape([...ctx.bad][0])}"] textarea`)?.focus();
      return;
    }
    const data = toPayload(s, attrs, st);
    let saved;
    try {
      if (single) saved = (await put(base(t) + wq, {data})).data;
      else if (doc || documentId) saved = (await put(url + wq, {data})).data;
      else saved = (await post(base(t) + wq, {data})).data;
    } catch (e) { showErrors(e); return; }
    dirty = false;
    if (!doc && !single && !documentId) {
      // Created: from now on this page edits that document.
      doc = saved;
      url = base(t) + '/' + encodeURIComponent(saved.documentId);
      history.replaceState(null, '', link(t) + '/' + saved.documentId + lq);
    }
    if (andPublish) {
      try {
        await post(`/admin/content-manager/${encodeURIComponent(t.uid)}/${encodeURIComponent(saved.documentId)}/actions/publish${lq}`);
      } catch (e) { showErrors(e); return; }
      toast('Published');
    } else toast('Saved');
    navigate(location.pathname + location.search, true);
  }
  async function action(name, msg) {
    try {
      await post(`/admin/content-manager/${encodeURIComponent(t.uid)}/${encodeURIComponent(doc.documentId)}/actions/${name}${lq}`);
      toast(msg);
      navigate(location.pathname + location.search, true);
    } catch (e) { showErrors(e); }
  }
  async function remove() {
    if (!await confirmDialog('Delete this entry?', 'The entry is deleted with all its versions' + (locale ? ' in this locale' : '') + '.', 'Delete')) return;
    try {
      await del((single ? base(t) : url) + lq);
      toast('Deleted');
      navigate(single ? location.pathname : link(t), true);
    } catch (e) { showErrors(e); }
  }

  const side = h('aside', {class: 'edit-side panel', 'aria-label': 'Document actions'},
    dp ? h('p', null, 'Status: ', h('span', {class: 'badge ' + status.toLowerCase()}, status)) : null,
    dp ? button('Publish', () => save(true)) : null,
    saveBtn,
    dp && pub ? button('Unpublish', () => action('unpublish', 'Unpublished'), {class: 'secondary'}) : null,
    dp && pub && status === 'Modified' ? button('Discard changes', () => action('discard-draft', 'Draft discarded'), {class: 'secondary'}) : null,
    doc ? button('Delete', remove, {class: 'danger'}) : null,
    doc ? h('p', {class: 'muted'}, `Updated ${fmtDate(doc.updatedAt)}`) : null,
    loc.length ? field('Locale', select(loc.map(l => [l.code, l.name || l.code]), locale || (loc.find(l => l.isDefault) || loc[0]).code,
      {onchange: e => navigate(location.pathname + '?locale=' + encodeURIComponent(e.target.value))})) : null);
  if (!dp) saveBtn.disabled = false;

  replace(main,
    h('div', {class: 'head'}, h('div', null,
      single ? null : h('a', {href: link(t)}, '← Back to ' + displayName(t)),
      h('h1', null, doc ? String(doc[mainField(t)] ?? displayName(t)) : single ? displayName(t) : documentId ? `Translate into ${locale}` : 'Create an entry'))),
    h('form', {class: 'edit', novalidate: true, onsubmit: e => { e.preventDefault(); save(false); }},
      h('div', {class: 'panel'}, errorBox, formEl), side));
  saveBtn.disabled = false;

}
