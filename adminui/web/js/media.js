// Media Library: a grid or list of the files, uploads with progress (several
// files, drag and drop), edit of name, alternative text and caption, delete;
// and the picker the edit view opens.
import {h, replace, clear, field, button, dialog, confirmDialog, toast, fmtDate, fmtSize, nextId, safeURL} from './dom.js';
import {get, del, uploadForm, qs} from './api.js';
import {navigate} from './app.js';

const isImage = f => (f.mime || '').startsWith('image/');
function formatsOf(f) {
  let fm = f.formats;
  if (typeof fm === 'string') { try { fm = JSON.parse(fm); } catch { fm = null; } }
  return fm || {};
}
const thumb = f => (formatsOf(f).thumbnail || {}).url || f.url;

export async function uploadFiles(files, onProgress) {
  const form = new FormData();
  for (const f of files) form.append('files', f);
  return uploadForm('/admin/upload', form, onProgress);
}

function preview(f) {
  return h('div', {class: 'thumb'}, isImage(f) ? h('img', {src: thumb(f), alt: f.alternativeText || f.name, loading: 'lazy'}) : h('span', {class: 'muted'}, (f.ext || '').replace('.', '').toUpperCase() || 'FILE'));
}

const PAGE = 48;

export async function mediaLibrary(main, _, params) {
  const mode = params.get('view') === 'list' ? 'list' : 'grid';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const search = params.get('q') || '';
  const res = await get('/admin/upload/files' + qs({page, pageSize: PAGE, _q: search || undefined}));
  const files = res.results || [];
  const pg = res.pagination;
  const go = changes => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(changes)) { if (v === '' || v == null || v === 1 && k === 'page') p.delete(k); else p.set(k, v); }
    navigate('/admin/plugins/upload' + (p.toString() ? '?' + p : ''));
  };
  const progress = h('ul', {class: 'progress-list', 'aria-live': 'polite'});
  const input = h('input', {type: 'file', multiple: true, id: nextId('files'), class: 'sr'});
  const pickLabel = h('label', {for: input.id, class: 'button', tabindex: '0',
    onkeydown: e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); input.click(); } }}, 'Add new assets');
  const drop = h('div', {class: 'dropzone'}, h('p', null, 'Drag and drop files here, or '), pickLabel, input, progress);
  const send = async list => {
    if (!list.length) return;
    const rows = [...list].map(f => {
      const bar = h('progress', {max: 1, value: 0, 'aria-label': `Upload of ${f.name}`});
      const li = h('li', null, h('span', null, f.name), bar);
      progress.append(li);
      return {f, bar, li};
    });
    // One request per file, so each has its own progress bar.
    let ok = 0;
    await Promise.all(rows.map(async r => {
      try { await uploadFiles([r.f], v => { r.bar.value = v; }); r.bar.value = 1; ok++; } catch (e) { r.li.append(h('span', {class: 'error'}, ' ' + e.message)); }
    }));
    if (ok) { toast(`${ok} file${ok > 1 ? 's' : ''} uploaded`); mediaLibrary(main, _, params); }
  };
  input.addEventListener('change', () => send(input.files));
  drop.addEventListener('dragover', e => { e.preventDefault(); drop.classList.add('over'); });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', e => { e.preventDefault(); drop.classList.remove('over'); send(e.dataTransfer.files); });

  const toggle = h('div', {class: 'row', role: 'group', 'aria-label': 'View'},
    button('Grid', () => go({view: ''}), {class: 'secondary', 'aria-pressed': String(mode === 'grid')}),
    button('List', () => go({view: 'list'}), {class: 'secondary', 'aria-pressed': String(mode === 'list')}));
  const searchInput = h('input', {type: 'search', value: search});
  const searchForm = h('form', {class: 'row', role: 'search', onsubmit: e => { e.preventDefault(); go({q: searchInput.value.trim(), page: 1}); }},
    field('Search assets', searchInput), h('button', {type: 'submit', class: 'secondary'}, 'Search'));
  const pager = pg.pageCount > 1 ? h('div', {class: 'pager'}, h('span', {class: 'muted'}, `page ${pg.page} of ${pg.pageCount}`),
    button('Previous', () => go({page: page - 1}), {class: 'secondary', disabled: page <= 1}),
    button('Next', () => go({page: page + 1}), {class: 'secondary', disabled: page >= pg.pageCount})) : null;
  const reload = () => mediaLibrary(main, _, params);
  const actions = f => h('div', {class: 'row'},
    button('Edit', () => editFile(f, reload), {class: 'secondary small', 'aria-label': `Edit ${f.name}`}),
    button('Delete', async () => {
      if (!await confirmDialog('Delete this file?', `${f.name} is deleted, and removed from the entries that use it.`, 'Delete')) return;
      try { await del('/admin/upload/files/' + f.id); toast('Deleted'); reload(); } catch (e) { toast(e.message, 'error'); }
    }, {class: 'secondary small', 'aria-label': `Delete ${f.name}`}));
  const body = !files.length ? h('p', {class: 'muted'}, search ? 'No asset matches.' : 'No asset yet.') : mode === 'grid'
    ? h('ul', {class: 'media-grid', role: 'list'}, files.map(f => h('li', {class: 'asset'}, preview(f),
      h('div', {class: 'meta'}, h('strong', null, f.name), h('span', null, `${(f.ext || '').replace('.', '').toUpperCase()}${f.width ? ` · ${f.width}×${f.height}` : ''} · ${fmtSize(f.size)}`)), actions(f))))
    : h('div', {class: 'table-wrap'}, h('table', null,
      h('thead', null, h('tr', null, ['Preview', 'Name', 'Type', 'Size', 'Created'].map(c => h('th', {scope: 'col'}, c)), h('th', {class: 'act'}, h('span', {class: 'sr'}, 'Actions')))),
      h('tbody', null, files.map(f => h('tr', null, h('td', null, isImage(f) ? h('img', {src: thumb(f), alt: '', width: 48, height: 36}) : ''),
        h('td', null, f.name), h('td', null, f.mime), h('td', null, fmtSize(f.size)), h('td', null, fmtDate(f.createdAt)), h('td', {class: 'act'}, actions(f)))))));
  replace(main, h('div', {class: 'head'}, h('h1', null, 'Media Library'), toggle),
    h('p', {class: 'lead'}, `${pg.total} asset${pg.total === 1 ? '' : 's'}`), drop, searchForm, body, pager);
}

function editFile(f, done) {
  const name = h('input', {type: 'text', value: f.name});
  const alt = h('input', {type: 'text', value: f.alternativeText || ''});
  const caption = h('input', {type: 'text', value: f.caption || ''});
  const fm = formatsOf(f);
  const err = h('p', {class: 'error', role: 'alert'});
  const d = dialog('Details of ' + f.name, [
    isImage(f) ? h('img', {src: f.url, alt: f.alternativeText || f.name, class: 'big-preview'}) : null,
    h('p', {class: 'muted'}, `${f.mime} · ${fmtSize(f.size)}${f.width ? ` · ${f.width}×${f.height}` : ''} · `, h('a', {href: safeURL(f.url), target: '_blank', rel: 'noopener'}, 'Open the file')),
    Object.keys(fm).length ? h('p', null, 'Formats: ', Object.entries(fm).map(([k, v], i) => [i ? ', ' : '', h('a', {href: safeURL(v.url), target: '_blank', rel: 'noopener'}, `${k} (${v.width}×${v.height})`)])) : null,
    field('File name', name), field('Alternative text', alt, {hint: 'Describes the image for people who cannot see it.'}), field('Caption', caption), err],
  [button('Finish', async () => {
    const form = new FormData();
    form.append('fileInfo', JSON.stringify({name: name.value, alternativeText: alt.value, caption: caption.value}));
    try { await uploadForm('/admin/upload?id=' + encodeURIComponent(f.id), form); d.close(); toast('Saved'); done(); } catch (e) { err.textContent = e.message; }
  })]);
  name.focus();
}

// pickMedia opens the library as a picker: resolves with the chosen files.
export function pickMedia({multiple, allowedTypes} = {}) {
  return new Promise(async resolve => {
    let files = [];
    const load = async q => {
      try { files = (await get('/admin/upload/files' + qs({pageSize: 100, _q: q || undefined}))).results || []; } catch (e) { toast(e.message, 'error'); }
    };
    await load('');
    const okType = f => !allowedTypes || !allowedTypes.length || allowedTypes.includes('files') ||
      allowedTypes.some(t => (f.mime || '').startsWith(t.replace(/s$/, '') + '/'));
    const chosen = new Set();
    const grid = h('ul', {class: 'media-grid', role: 'listbox', 'aria-multiselectable': multiple ? 'true' : 'false', 'aria-label': 'Assets'});
    const draw = () => replace(grid, files.filter(okType).map(f => {
      const sel = chosen.has(f);
      return h('li', {class: 'asset' + (sel ? ' selected' : '')}, preview(f), h('div', {class: 'meta'}, h('strong', null, f.name)),
        h('div', {class: 'row'}, button(sel ? 'Selected' : 'Select', () => {
          if (sel) chosen.delete(f); else { if (!multiple) chosen.clear(); chosen.add(f); }
          draw();
          grid.querySelectorAll('button')[files.filter(okType).indexOf(f)]?.focus();
        }, {class: sel ? 'small' : 'secondary small', 'aria-pressed': String(sel), 'aria-label': `Select ${f.name}`})));
    }));
    draw();
    let done = false;
    const find = h('input', {type: 'search'});
    const findForm = h('form', {class: 'row', role: 'search', onsubmit: async e => { e.preventDefault(); await load(find.value.trim()); draw(); }},
      field('Search assets', find), h('button', {type: 'submit', class: 'secondary'}, 'Search'));
    const d = dialog(multiple ? 'Choose assets' : 'Choose an asset', files.length ? [findForm, grid] : h('p', {class: 'muted'}, 'The library is empty: upload a file first.'),
      [button('Finish', () => { done = true; d.close(); })]);
    d.addEventListener('close', () => resolve(done ? [...chosen] : []));
  });
}

export {clear};
