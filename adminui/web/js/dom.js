// DOM helpers. Every value reaches the page as a text node or an attribute
// set through the DOM: nothing is ever parsed as HTML.

let seq = 0;
export const nextId = (p = 'f') => `${p}-${++seq}`;

// h('button', {class: 'x', onclick: fn, type: 'button'}, 'text', child, [more])
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  if (props) {
    for (const [k, v] of Object.entries(props)) {
      if (v == null || v === false) continue;
      if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.className = v;
      else if (k === 'dataset') Object.assign(el.dataset, v);
      else if (k === 'value' || k === 'checked' || k === 'selected' || k === 'indeterminate') el[k] = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c == null || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.firstChild.remove();
  return el;
}

export function replace(el, ...children) {
  clear(el);
  return append(el, children);
}

// field: a labelled control, with room for a hint and an error.
export function field(label, control, opts = {}) {
  if (!control.id) control.id = nextId();
  const err = h('p', {class: 'field-error', id: control.id + '-err', role: 'alert'});
  control.setAttribute('aria-describedby', err.id + (opts.hint ? ' ' + control.id + '-hint' : ''));
  return h('div', {class: 'field' + (opts.wide ? ' wide' : ''), dataset: opts.path ? {path: opts.path} : null},
    h('label', {for: control.id}, label, opts.required ? h('span', {class: 'req', 'aria-hidden': 'true'}, ' *') : null),
    control,
    opts.hint ? h('p', {class: 'hint', id: control.id + '-hint'}, opts.hint) : null,
    err);
}

export function checkbox(label, checked, onchange, extra = {}) {
  const input = h('input', {type: 'checkbox', checked, id: nextId('c'), onchange: e => onchange && onchange(e.target.checked), ...extra});
  return h('label', {class: 'check', for: input.id}, input, ' ', label);
}

export function select(options, value, props = {}) {
  return h('select', props, options.map(o => {
    const [v, l] = Array.isArray(o) ? o : [o, o];
    return h('option', {value: v, selected: String(v) === String(value ?? '')}, l);
  }));
}

export function button(label, onclick, props = {}) {
  return h('button', {type: 'button', onclick, ...props}, label);
}

// moveButtons: up, down and remove for item i of items.
export function moveButtons(items, i, redraw, what) {
  return h('span', {class: 'row'},
    button('↑', () => { [items[i - 1], items[i]] = [items[i], items[i - 1]]; redraw(); }, {class: 'secondary small', disabled: i === 0, 'aria-label': `Move ${what} up`}),
    button('↓', () => { [items[i + 1], items[i]] = [items[i], items[i + 1]]; redraw(); }, {class: 'secondary small', disabled: i === items.length - 1, 'aria-label': `Move ${what} down`}),
    button('Remove', () => { items.splice(i, 1); redraw(); }, {class: 'secondary small', 'aria-label': `Remove ${what}`}));
}

// A modal dialog (<dialog>, which traps focus and closes on Escape).
export function dialog(title, body, actions = []) {
  const d = h('dialog', {class: 'modal', 'aria-labelledby': nextId('dlg')});
  const head = h('h2', {id: d.getAttribute('aria-labelledby')}, title);
  append(d, [head, h('div', {class: 'modal-body'}, body), h('div', {class: 'actions'}, actions,
    button('Close', () => d.close(), {class: 'secondary'}))]);
  d.addEventListener('close', () => d.remove());
  document.body.append(d);
  d.showModal();
  return d;
}

export function confirmDialog(title, message, okLabel = 'Confirm') {
  return new Promise(resolve => {
    let ok = false;
    const d = dialog(title, h('p', null, message), [button(okLabel, () => { ok = true; d.close(); }, {class: 'danger'})]);
    d.addEventListener('close', () => resolve(ok));
  });
}

let toastBox;
export function toast(message, kind = 'ok') {
  if (!toastBox || !toastBox.isConnected) {
    toastBox = h('div', {class: 'toasts', role: 'status', 'aria-live': 'polite'});
    document.body.append(toastBox);
  }
  const t = h('p', {class: 'toast ' + kind}, message);
  toastBox.append(t);
  setTimeout(() => t.remove(), kind === 'error' ? 8000 : 4000);
}

export function fmtDate(s) {
  if (!s) return '';
  const d = new Date(s);
  return isNaN(d) ? String(s) : d.toLocaleString();
}

export function fmtSize(kb) {
  if (kb == null) return '';
  return kb >= 1024 ? (kb / 1024).toFixed(1) + ' MB' : Math.round(kb) + ' KB';
}

// safeURL keeps links to this site and to http(s) only.
export function safeURL(u) {
  const s = String(u || '');
  return /^(https?:\/\/|\/(?!\/))/i.test(s) ? s : '#';
}
