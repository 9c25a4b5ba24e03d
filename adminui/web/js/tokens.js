// Settings → API Tokens: list, create (type, lifespan, custom permissions),
// the token shown once with a copy button, regenerate, revoke.
import {h, replace, field, button, select, toast, confirmDialog, fmtDate} from './dom.js';
import {get, post, put, del} from './api.js';
import {loadSchema} from './schema.js';
import {matrix} from './perms.js';
import {navigate} from './app.js';

const DAY = 86400000;
const LIFESPANS = [['', 'Unlimited'], [String(7 * DAY), '7 days'], [String(30 * DAY), '30 days'], [String(90 * DAY), '90 days']];
const TYPES = [['read-only', 'Read-only'], ['full-access', 'Full access'], ['custom', 'Custom']];

export async function apiTokens(main, [id]) {
  if (id) return editToken(main, id === 'create' ? null : id);
  const list = (await get('/admin/api-tokens')).data || [];
  replace(main,
    h('div', {class: 'head'}, h('h1', null, 'API Tokens'), h('a', {class: 'button', href: '/admin/settings/api-tokens/create'}, 'Create new API Token')),
    h('p', {class: 'lead'}, 'Tokens let a site or a service call the content API (/api) with a type of access.'),
    h('div', {class: 'table-wrap'}, h('table', null,
      h('thead', null, h('tr', null, ['Name', 'Description', 'Type', 'Created', 'Last used', 'Expires'].map(c => h('th', {scope: 'col'}, c)), h('th', {class: 'act'}, h('span', {class: 'sr'}, 'Actions')))),
      h('tbody', null, list.length ? list.map(t => h('tr', null,
        h('td', null, h('a', {href: '/admin/settings/api-tokens/' + t.id}, t.name)), h('td', null, t.description || ''), h('td', null, t.type),
        h('td', null, fmtDate(t.createdAt)), h('td', null, t.lastUsedAt ? fmtDate(t.lastUsedAt) : 'Never'), h('td', null, t.expiresAt ? fmtDate(t.expiresAt) : 'Unlimited'),
        h('td', {class: 'act'}, button('Revoke', async () => {
          if (!await confirmDialog('Revoke this token?', `Requests with “${t.name}” stop working at once.`, 'Revoke')) return;
          await del('/admin/api-tokens/' + t.id); toast('Token revoked'); apiTokens(main, []);
        }, {class: 'secondary small', 'aria-label': `Revoke ${t.name}`})))) : h('tr', null, h('td', {colspan: 7, class: 'muted'}, 'No API token yet.'))))));
}

function showOnce(key) {
  const out = h('output', {class: 'token', id: 'new-token'}, key);
  return h('div', {class: 'notice', role: 'status'},
    h('p', null, h('strong', null, 'Copy this token now: it is shown only once.')), out,
    h('div', {class: 'row'}, button('Copy', async () => {
      try { await navigator.clipboard.writeText(key); toast('Copied to the clipboard'); } catch {
        const r = document.createRange(); r.selectNodeContents(out); const s = getSelection(); s.removeAllRanges(); s.addRange(r);
        toast('Press Ctrl+C to copy the selected token');
      }
    }, {class: 'secondary'})));
}

async function editToken(main, id, shownKey) {
  const schema = await loadSchema();
  const tok = id ? (await get('/admin/api-tokens/' + encodeURIComponent(id))).data : {name: '', description: '', type: 'read-only', permissions: [], lifespan: null};
  const perms = new Set(tok.permissions || []);
  const name = h('input', {type: 'text', value: tok.name, required: true});
  const desc = h('textarea', {rows: 2}, tok.description || '');
  const type = select(TYPES, tok.type);
  const life = select(LIFESPANS, tok.lifespan == null ? '' : String(tok.lifespan), {disabled: !!id});
  const matrixBox = h('div', {hidden: tok.type !== 'custom'}, h('h2', null, 'Permissions'), matrix(schema, perms, {plugins: true}));
  type.addEventListener('change', () => { matrixBox.hidden = type.value !== 'custom'; });
  const err = h('p', {class: 'error', role: 'alert'});
  const formEl = h('form', {class: 'panel', novalidate: true}, err,
    h('div', {class: 'grid2'}, field('Name', name, {required: true, path: 'name'}), field('Token duration', life, {hint: id ? 'The duration is set at creation.' : null}),
      field('Description', desc, {wide: true}), field('Token type', type, {hint: 'Read-only: find and findOne. Full access: everything. Custom: the permissions below.'})),
    matrixBox,
    h('div', {class: 'actions'}, h('button', {type: 'submit'}, 'Save')));
  formEl.addEventListener('submit', async e => {
    e.preventDefault();
    err.textContent = '';
    const body = {name: name.value.trim(), description: desc.value, type: type.value, permissions: type.value === 'custom' ? [...perms] : []};
    try {
      if (id) { await put('/admin/api-tokens/' + id, body); toast('Saved'); }
      else {
        if (life.value) body.lifespan = Number(life.value);
        const res = (await post('/admin/api-tokens', body)).data;
        history.replaceState(null, '', '/admin/settings/api-tokens/' + res.id);
        return editToken(main, String(res.id), res.accessKey);
      }
    } catch (x) { err.textContent = x.message; }
  });
  const regen = id ? button('Regenerate', async () => {
    if (!await confirmDialog('Regenerate this token?', 'The current token stops working at once.', 'Regenerate')) return;
    const res = (await post(`/admin/api-tokens/${id}/regenerate`)).data;
    editToken(main, id, res.accessKey);
  }, {class: 'secondary'}) : null;
  const revoke = id ? button('Revoke', async () => {
    if (!await confirmDialog('Revoke this token?', 'Requests with it stop working at once.', 'Revoke')) return;
    await del('/admin/api-tokens/' + id); toast('Token revoked'); navigate('/admin/settings/api-tokens');
  }, {class: 'danger'}) : null;
  replace(main,
    h('a', {href: '/admin/settings/api-tokens'}, '← Back to API Tokens'),
    h('div', {class: 'head'}, h('h1', null, id ? tok.name : 'Create an API Token'), h('div', {class: 'row'}, regen, revoke)),
    shownKey ? showOnce(shownKey) : null,
    id ? h('p', {class: 'muted'}, `Expires: ${tok.expiresAt ? fmtDate(tok.expiresAt) : 'never'} · last used: ${tok.lastUsedAt ? fmtDate(tok.lastUsedAt) : 'never'}`) : null,
    formEl);
  if (shownKey) main.querySelector('.notice button').focus();
}
