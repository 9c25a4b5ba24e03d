// The permission matrix: content-types × actions, and the plugins' actions,
// as checkboxes over a Set of action names.
import {h, checkbox} from './dom.js';
import {displayName, isSingle} from './schema.js';

const TYPE_ACTIONS = ['find', 'findOne', 'create', 'update', 'delete'];
export const PLUGIN_ACTIONS = [
  ['Users & Permissions: login', 'plugin::users-permissions.auth.callback'],
  ['Users & Permissions: register', 'plugin::users-permissions.auth.register'],
  ['Users & Permissions: forgot password', 'plugin::users-permissions.auth.forgotPassword'],
  ['Users & Permissions: reset password', 'plugin::users-permissions.auth.resetPassword'],
  ['Users & Permissions: change password', 'plugin::users-permissions.auth.changePassword'],
  ['Users & Permissions: email confirmation', 'plugin::users-permissions.auth.emailConfirmation'],
  ['Users & Permissions: send email confirmation', 'plugin::users-permissions.auth.sendEmailConfirmation'],
  ['Users: me', 'plugin::users-permissions.user.me'],
  ['Users: find', 'plugin::users-permissions.user.find'],
  ['Users: findOne', 'plugin::users-permissions.user.findOne'],
  ['Users: count', 'plugin::users-permissions.user.count'],
  ['Users: create', 'plugin::users-permissions.user.create'],
  ['Users: update', 'plugin::users-permissions.user.update'],
  ['Users: destroy', 'plugin::users-permissions.user.destroy'],
  ['Roles: find', 'plugin::users-permissions.role.find'],
  ['Roles: findOne', 'plugin::users-permissions.role.findOne'],
  ['Roles: create', 'plugin::users-permissions.role.createRole'],
  ['Roles: update', 'plugin::users-permissions.role.updateRole'],
  ['Roles: delete', 'plugin::users-permissions.role.deleteRole'],
  ['Permissions: getPermissions', 'plugin::users-permissions.permissions.getPermissions'],
  ['Upload: upload', 'plugin::upload.content-api.upload'],
  ['Upload: find', 'plugin::upload.content-api.find'],
  ['Upload: findOne', 'plugin::upload.content-api.findOne'],
  ['Upload: destroy', 'plugin::upload.content-api.destroy'],
  ['i18n: list locales', 'plugin::i18n.locales.listLocales'],
];

export function matrix(schema, set, {plugins = true} = {}) {
  const actionsOf = t => isSingle(t) ? ['find', 'update', 'delete'] : TYPE_ACTIONS;
  const rows = schema.types.map(t => {
    const name = displayName(t);
    const all = actionsOf(t).map(a => `${t.uid}.${a}`);
    const allBox = h('input', {type: 'checkbox', 'aria-label': `All actions on ${name}`, checked: all.every(a => set.has(a)),
      onchange: e => { for (const a of all) e.target.checked ? set.add(a) : set.delete(a); row.querySelectorAll('input[data-action]').forEach(c => { c.checked = e.target.checked; }); }});
    const row = h('tr', null, h('th', {scope: 'row'}, name),
      h('td', null, allBox),
      TYPE_ACTIONS.map(a => h('td', null, actionsOf(t).includes(a) ? h('input', {type: 'checkbox', dataset: {action: `${t.uid}.${a}`}, 'aria-label': `${a} on ${name}`,
        checked: set.has(`${t.uid}.${a}`), onchange: e => { e.target.checked ? set.add(`${t.uid}.${a}`) : set.delete(`${t.uid}.${a}`); allBox.checked = all.every(x => set.has(x)); }}) : '—')));
    return row;
  });
  return h('div', null,
    h('div', {class: 'table-wrap'}, h('table', {class: 'matrix', 'aria-label': 'Permissions on content-types'},
      h('thead', null, h('tr', null, h('th', {scope: 'col'}, 'Content-type'), h('th', {scope: 'col'}, 'All'), TYPE_ACTIONS.map(a => h('th', {scope: 'col'}, a)))),
      h('tbody', null, rows.length ? rows : h('tr', null, h('td', {colspan: 7, class: 'muted'}, 'No content-type yet.'))))),
    plugins ? h('fieldset', null, h('legend', null, 'Plugins'), h('div', {class: 'grid2'},
      PLUGIN_ACTIONS.map(([l, a]) => checkbox(l, set.has(a), on => { on ? set.add(a) : set.delete(a); })))) : null);
}
