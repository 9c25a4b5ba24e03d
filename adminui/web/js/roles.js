// Settings → Roles (users-permissions): the roles and their permissions as
// a matrix of types × actions.
import {h, replace, field, button, toast, confirmDialog} from './dom.js';
import {get, post, put, del} from './api.js';
import {loadSchema} from './schema.js';
import {matrix} from './perms.js';
import {navigate} from './app.js';

export async function roles(main, [id]) {
  if (id) return editRole(main, id === 'create' ? null : id);
  const list = (await get('/admin/users-permissions/roles')).data || [];
  replace(main,
    h('div', {class: 'head'}, h('h1', null, 'Roles'), h('a', {class: 'button', href: '/admin/settings/users-permissions/roles/create'}, 'Add new role')),
    h('p', {class: 'lead'}, 'What the Public role, authenticated users and custom roles may do on the content API.'),
    h('div', {class: 'table-wrap'}, h('table', null,
      h('thead', null, h('tr', null, ['Name', 'Description', 'Users'].map(c => h('th', {scope: 'col'}, c)), h('th', {class: 'act'}, h('span', {class: 'sr'}, 'Actions')))),
      h('tbody', null, list.map(r => h('tr', null, h('td', null, h('a', {href: '/admin/settings/users-permissions/roles/' + r.id}, r.name)),
        h('td', null, r.description || ''), h('td', null, String(r.nb_users ?? 0)),
        h('td', {class: 'act'}, r.type === 'public' || r.type === 'authenticated' ? '' : button('Delete', async () => {
          if (!await confirmDialog('Delete this role?', `Its users move to Authenticated.`, 'Delete')) return;
          try { await del('/admin/users-permissions/roles/' + r.id); toast('Role deleted'); roles(main, []); } catch (e) { toast(e.message, 'error'); }
        }, {class: 'secondary small', 'aria-label': `Delete ${r.name}`}))))))));
}

async function editRole(main, id) {
  const schema = await loadSchema();
  const role = id ? (await get('/admin/users-permissions/roles/' + encodeURIComponent(id))).data : {name: '', description: '', permissions: []};
  const perms = new Set(role.permissions || []);
  const name = h('input', {type: 'text', value: role.name, required: true});
  const desc = h('textarea', {rows: 2}, role.description || '');
  const err = h('p', {class: 'error', role: 'alert'});
  const f = h('form', {class: 'panel', novalidate: true}, err,
    h('div', {class: 'grid2'}, field('Name', name, {required: true}), field('Description', desc)),
    h('h2', null, 'Permissions'), matrix(schema, perms),
    h('div', {class: 'actions'}, h('button', {type: 'submit'}, 'Save')));
  f.addEventListener('submit', async e => {
    e.preventDefault();
    err.textContent = '';
    const body = {name: name.value.trim(), description: desc.value, permissions: [...perms]};
    try {
      if (id) await put('/admin/users-permissions/roles/' + id, body);
      else { const r = (await post('/admin/users-permissions/roles', body)).data; navigate('/admin/settings/users-permissions/roles/' + r.id, true); }
      toast('Saved: the role changes at once, on every node');
    } catch (x) { err.textContent = x.message; }
  });
  replace(main, h('a', {href: '/admin/settings/users-permissions/roles'}, '← Back to Roles'),
    h('h1', null, id ? role.name : 'Add a role'), f);
}
