import {h, replace} from './dom.js';
import {session} from './api.js';
import {loadSchema, displayName, isSingle} from './schema.js';

export async function home(main) {
  const s = await loadSchema();
  const user = session.user || {};
  replace(main,
    h('h1', null, 'Welcome' + (user.firstname ? ', ' + user.firstname : '')),
    h('p', {class: 'lead'}, 'Manage your content, design your types and issue tokens. Changes to types are live at once, on every node.'),
    h('div', {class: 'cards'},
      card('Content Manager', '/admin/content-manager', `${s.types.length} content-types`),
      card('Content-Type Builder', '/admin/plugins/content-type-builder', `${s.components.length} components`),
      card('Media Library', '/admin/plugins/upload', 'Images, videos and files'),
      card('Settings', '/admin/settings', 'API tokens, roles, webhooks')),
    s.types.length ? h('section', null, h('h2', null, 'Your content'),
      h('ul', {class: 'links'}, s.types.map(t => h('li', null,
        h('a', {href: `/admin/content-manager/${isSingle(t) ? 'single-types' : 'collection-types'}/${t.uid}`}, displayName(t)))))) : null);
}

function card(title, href, text) {
  return h('a', {class: 'card', href}, h('strong', null, title), h('span', null, text));
}
