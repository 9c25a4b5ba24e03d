// Settings → Webhooks: list, create, edit, enable, trigger, delete.
import {h, replace, field, button, checkbox, toast, confirmDialog, fmtDate} from './dom.js';
import {get, post, put, del} from './api.js';
import {navigate} from './app.js';

const EVENTS = ['entry.create', 'entry.update', 'entry.delete', 'entry.publish', 'entry.unpublish', 'media.create', 'media.update', 'media.delete'];

export async function webhooks(main, [id]) {
  if (id) return editHook(main, id === 'create' ? null : id);
  const list = (await get('/admin/webhooks')).data || [];
  replace(main,
    h('div', {class: 'head'}, h('h1', null, 'Webhooks'), h('a', {class: 'button', href: '/admin/settings/webhooks/create'}, 'Create new webhook')),
    h('div', {class: 'table-wrap'}, h('table', null,
      h('thead', null, h('tr', null, ['Name', 'URL', 'Events', 'Enabled'].map(c => h('th', {scope: 'col'}, c)), h('th', {class: 'act'}, h('span', {class: 'sr'}, 'Actions')))),
      h('tbody', null, list.length ? list.map(w => h('tr', null, h('td', null, h('a', {href: '/admin/settings/webhooks/' + w.id}, w.name)), h('td', null, w.url),
        h('td', null, (w.events || []).join(', ')), h('td', null, w.isEnabled ? 'Yes' : 'No'),
        h('td', {class: 'act'}, button('Delete', async () => {
          if (!await confirmDialog('Delete this webhook?', w.name, 'Delete')) return;
          await del('/admin/webhooks/' + w.id); toast('Webhook deleted'); webhooks(main, []);
        }, {class: 'secondary small', 'aria-label': `Delete ${w.name}`})))) : h('tr', null, h('td', {colspan: 5, class: 'muted'}, 'No webhook yet.'))))));
}

async function editHook(main, id) {
  const w = id ? (await get('/admin/webhooks/' + encodeURIComponent(id))).data : {name: '', url: '', headers: {}, events: [], isEnabled: true};
  const name = h('input', {type: 'text', value: w.name, required: true});
  const url = h('input', {type: 'url', value: w.url, required: true, placeholder: 'https://example.com/hook'});
  const events = new Set(w.events || []);
  const headers = Object.entries(w.headers || {}).map(([k, v]) => ({k, v}));
  const hbox = h('div');
  const drawHeaders = () => replace(hbox, headers.map((x, i) => h('div', {class: 'row'},
    field(`Header ${i + 1} name`, h('input', {type: 'text', value: x.k, oninput: e => { x.k = e.target.value; }})),
    field(`Header ${i + 1} value`, h('input', {type: 'text', value: x.v, oninput: e => { x.v = e.target.value; }})),
    button('Remove', () => { headers.splice(i, 1); drawHeaders(); }, {class: 'secondary small', 'aria-label': `Remove header ${i + 1}`}))));
  drawHeaders();
  let enabled = w.isEnabled;
  const err = h('p', {class: 'error', role: 'alert'});
  const f = h('form', {class: 'panel', novalidate: true}, err,
    h('div', {class: 'grid2'}, field('Name', name, {required: true}), field('URL', url, {required: true})),
    checkbox('Enabled', enabled, v => { enabled = v; }),
    h('fieldset', null, h('legend', null, 'Headers'), hbox, button('Add a header', () => { headers.push({k: '', v: ''}); drawHeaders(); }, {class: 'secondary small'})),
    h('fieldset', null, h('legend', null, 'Events'), h('div', {class: 'grid2'}, EVENTS.map(ev => checkbox(ev, events.has(ev), on => { on ? events.add(ev) : events.delete(ev); })))),
    h('div', {class: 'actions'}, h('button', {type: 'submit'}, 'Save')));
  f.addEventListener('submit', async e => {
    e.preventDefault();
    err.textContent = '';
    const body = {name: name.value.trim(), url: url.value.trim(), isEnabled: enabled, events: [...events],
      headers: Object.fromEntries(headers.filter(x => x.k).map(x => [x.k, x.v]))};
    try {
      if (id) await put('/admin/webhooks/' + id, body);
      else { const r = (await post('/admin/webhooks', body)).data; navigate('/admin/settings/webhooks/' + r.id, true); }
      toast('Saved');
    } catch (x) { err.textContent = x.message; }
  });
  let deliveries = null;
  if (id) {
    try {
      const ds = (await get(`/admin/webhooks/${id}/deliveries`)).data || [];
      deliveries = h('section', null, h('h2', null, 'Latest deliveries'), ds.length ? h('ul', null, ds.map(d => h('li', null, `${d.event}: ${d.status}` + (d.lastStatus ? ` (${d.lastStatus})` : '') + (d.lastError ? ` — ${d.lastError}` : ''))))
        : h('p', {class: 'muted'}, 'None yet.'));
    } catch { /* optional */ }
  }
  replace(main, h('a', {href: '/admin/settings/webhooks'}, '← Back to Webhooks'),
    h('div', {class: 'head'}, h('h1', null, id ? w.name : 'Create a webhook'),
      id ? button('Trigger', async () => { try { await post(`/admin/webhooks/${id}/trigger`); toast('Test event sent'); } catch (x) { toast(x.message, 'error'); } }, {class: 'secondary'}) : null),
    f, deliveries);
}
