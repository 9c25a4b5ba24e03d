// The admin panel: the shell (login, first-admin registration, navigation)
// and a router over history paths under /admin.
import {h, replace, field, button, toast} from './dom.js';
import {session, get, post, ApiError} from './api.js';

const routes = [
  [/^\/admin\/?$/, () => import('./home.js').then(m => m.home)],
  [/^\/admin\/content-manager(?:\/(collection-types|single-types)\/([^/]+)(?:\/([^/]+))?)?\/?$/, () => import('./cm.js').then(m => m.contentManager)],
  [/^\/admin\/plugins\/content-type-builder(?:\/(content-types|component-categories|components)\/([^/]+))?\/?$/, () => import('./ctb.js').then(m => m.builder)],
  [/^\/admin\/plugins\/upload\/?$/, () => import('./media.js').then(m => m.mediaLibrary)],
  [/^\/admin\/settings\/?$/, () => import('./settings.js').then(m => m.settingsHome)],
  [/^\/admin\/settings\/api-tokens(?:\/([^/]+))?\/?$/, () => import('./tokens.js').then(m => m.apiTokens)],
  [/^\/admin\/settings\/users-permissions\/roles(?:\/([^/]+))?\/?$/, () => import('./roles.js').then(m => m.roles)],
  [/^\/admin\/settings\/webhooks(?:\/([^/]+))?\/?$/, () => import('./webhooks.js').then(m => m.webhooks)],
];

const NAV = [
  ['Content Manager', '/admin/content-manager'],
  ['Content-Type Builder', '/admin/plugins/content-type-builder'],
  ['Media Library', '/admin/plugins/upload'],
];
const SETTINGS = [
  ['API Tokens', '/admin/settings/api-tokens'],
  ['Roles', '/admin/settings/users-permissions/roles'],
  ['Webhooks', '/admin/settings/webhooks'],
];

const root = document.getElementById('app');
let main, navEl;

export function navigate(path, replaceState) {
  if (replaceState) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  render();
}

// Links inside the app change the route without a page load.
document.addEventListener('click', e => {
  const a = e.target.closest && e.target.closest('a[href]');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/admin') || url.pathname.startsWith('/admin/_app')) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
});
window.addEventListener('popstate', () => render());
window.addEventListener('admin:logout', e => {
  if (e.detail) toast(e.detail, 'error');
  navigate('/admin/auth/login', true);
});

// render draws the screen of the current path; body[data-busy] is set while
// it loads (tests wait for it to go).
let renders = 0;
async function render() {
  const n = ++renders;
  document.body.dataset.busy = '1';
  try { await draw(); } finally { if (n === renders) delete document.body.dataset.busy; }
}

async function draw() {
  const path = location.pathname;
  if (!session.token) {
    return renderAuth(path);
  }
  if (path.startsWith('/admin/auth/')) return navigate('/admin', true);
  ensureLayout();
  markNav(path);
  for (const [re, load] of routes) {
    const m = path.match(re);
    if (!m) continue;
    const view = await load();
    const params = new URLSearchParams(location.search);
    replace(main, h('p', {class: 'loading'}, 'Loading…'));
    try {
      await view(main, m.slice(1).map(x => x && decodeURIComponent(x)), params);
    } catch (err) {
      showError(main, err);
    }
    const h1 = main.querySelector('h1');
    if (h1) { h1.tabIndex = -1; h1.focus({preventScroll: true}); document.title = h1.textContent + ' · Stratum admin'; }
    return;
  }
  replace(main, h('h1', null, 'Page not found'), h('p', null, h('a', {href: '/admin'}, 'Back to the home page')));
}

export function showError(el, err) {
  if (err instanceof ApiError && err.status === 401) return;
  replace(el, h('h1', null, 'Something went wrong'), h('p', {class: 'error', role: 'alert'}, err.message || String(err)));
}

function ensureLayout() {
  if (main && main.isConnected) return;
  const menu = button('Menu', () => document.body.classList.toggle('nav-open'), {class: 'menu-toggle', 'aria-controls': 'nav', 'aria-expanded': 'false'});
  navEl = h('nav', {id: 'nav', 'aria-label': 'Main'},
    h('a', {href: '/admin', class: 'brand'}, 'Stratum'),
    h('ul', null, NAV.map(([l, p]) => h('li', null, h('a', {href: p}, l)))),
    h('p', {class: 'nav-title', id: 'settings-title'}, 'Settings'),
    h('ul', {'aria-labelledby': 'settings-title'}, SETTINGS.map(([l, p]) => h('li', null, h('a', {href: p}, l)))),
    h('div', {class: 'nav-foot'},
      h('p', {class: 'who'}, (session.user && session.user.email) || ''),
      button('Log out', logout, {class: 'secondary'})));
  navEl.addEventListener('click', e => { if (e.target.closest('a')) { document.body.classList.remove('nav-open'); menu.setAttribute('aria-expanded', 'false'); } });
  menu.addEventListener('click', () => menu.setAttribute('aria-expanded', String(document.body.classList.contains('nav-open'))));
  main = h('main', {id: 'main'});
  replace(root,
    h('a', {href: '#main', class: 'skip', onclick: e => { e.preventDefault(); main.querySelector('h1')?.focus(); }}, 'Skip to content'),
    h('header', {class: 'topbar'}, menu, h('span', null, 'Stratum admin')),
    navEl, main);
}

function markNav(path) {
  for (const a of navEl.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href');
    const cur = href === '/admin' ? path === '/admin' || path === '/admin/' : path.startsWith(href);
    if (cur) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
}

function logout() {
  session.clear();
  main = null;
  toast('You are logged out.');
}

async function renderAuth(path) {
  main = null;
  let hasAdmin = true;
  try { hasAdmin = (await get('/admin/init')).data.hasAdmin; } catch { /* the form says more */ }
  const register = !hasAdmin;
  const want = register ? '/admin/auth/register-admin' : '/admin/auth/login';
  if (path !== want) history.replaceState(null, '', want);
  const email = h('input', {type: 'email', name: 'email', autocomplete: 'username', required: true});
  const password = h('input', {type: 'password', name: 'password', autocomplete: register ? 'new-password' : 'current-password', required: true});
  const firstname = h('input', {type: 'text', name: 'firstname', autocomplete: 'given-name'});
  const lastname = h('input', {type: 'text', name: 'lastname', autocomplete: 'family-name'});
  const confirm = h('input', {type: 'password', name: 'confirmPassword', autocomplete: 'new-password', required: true});
  const msg = h('p', {class: 'error', role: 'alert'});
  const form = h('form', {class: 'auth-form', novalidate: true},
    h('h1', null, register ? 'Welcome to Stratum' : 'Log in to Stratum'),
    h('p', {class: 'lead'}, register ? 'Create the first administrator account.' : 'Log in to your admin account.'),
    register ? [field('First name', firstname), field('Last name', lastname)] : null,
    field('Email', email, {required: true, path: 'email'}),
    field('Password', password, {required: true, path: 'password',
      hint: register ? '8 characters or more, with a lowercase letter, an uppercase letter and a number.' : null}),
    register ? field('Confirm password', confirm, {required: true, path: 'confirmPassword'}) : null,
    msg,
    h('button', {type: 'submit', class: 'primary'}, register ? "Let's start" : 'Login'));
  form.addEventListener('submit', async e => {
    e.preventDefault();
    msg.textContent = '';
    form.querySelectorAll('.field-error').forEach(x => { x.textContent = ''; });
    if (register && password.value !== confirm.value) {
      form.querySelector('[data-path="confirmPassword"] .field-error').textContent = 'The passwords do not match.';
      confirm.focus();
      return;
    }
    const body = {email: email.value.trim(), password: password.value};
    if (register) Object.assign(body, {firstname: firstname.value, lastname: lastname.value});
    try {
      const res = await post(register ? '/admin/register-admin' : '/admin/login', body);
      session.set(res.data.token, res.data.user);
      navigate('/admin', true);
    } catch (err) {
      const fe = err.fieldErrors ? err.fieldErrors() : {};
      for (const [p, m] of Object.entries(fe)) {
        const el = form.querySelector(`[data-path="${CSS.escape(p)}"] .field-error`);
        if (el) el.textContent = m;
      }
      msg.textContent = err.message;
    }
  });
  replace(root, h('main', {class: 'auth', id: 'main'}, form));
  email.focus();
}

session.watch();
render();
