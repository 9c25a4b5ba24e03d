import {h, replace} from './dom.js';

export async function settingsHome(main) {
  replace(main, h('h1', null, 'Settings'),
    h('ul', {class: 'links'},
      h('li', null, h('a', {href: '/admin/settings/api-tokens'}, 'API Tokens')),
      h('li', null, h('a', {href: '/admin/settings/users-permissions/roles'}, 'Roles')),
      h('li', null, h('a', {href: '/admin/settings/webhooks'}, 'Webhooks'))));
}
