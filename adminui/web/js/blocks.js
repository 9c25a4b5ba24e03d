// The blocks editor: Strapi 5's blocks attribute (paragraphs, headings,
// quotes, code, lists; images and unknown blocks kept as they are). Each
// block is a contenteditable element drawn with DOM calls from its JSON
// (text nodes with marks become strong/em/u/s/code elements, links become
// a elements); an edit reads the element back into Strapi's JSON
// (adjacent text nodes with the same marks merged, empty ones dropped,
// unknown inline nodes kept as they were). Marks and links are applied to
// the JSON and the block redrawn, so the browser's own formatting commands
// (which write inline styles) are never used. Paste inserts plain text.
// "Add an image" picks an image from the media library (the edit view's
// picker) and adds Strapi's image block: the file's fields Strapi keeps
// (IMAGE_FIELDS; alternativeText falls back to the name) and an empty text.
import {h, clear, button, select, dialog, moveButtons, safeURL} from './dom.js';
import {pickMedia} from './media.js';

const MARKS = [['bold', 'strong', 'B', 'Bold', 'b'], ['italic', 'em', 'I', 'Italic', 'i'], ['underline', 'u', 'U', 'Underline', 'u'],
  ['strikethrough', 's', 'S', 'Strikethrough', 'x'], ['code', 'code', '</>', 'Code', 'e']];
const TAG_MARK = {STRONG: 'bold', B: 'bold', EM: 'italic', I: 'italic', U: 'underline', S: 'strikethrough', STRIKE: 'strikethrough', DEL: 'strikethrough', CODE: 'code'};
const KINDS = [['paragraph', 'Paragraph'], ['heading-1', 'Heading 1'], ['heading-2', 'Heading 2'], ['heading-3', 'Heading 3'],
  ['heading-4', 'Heading 4'], ['heading-5', 'Heading 5'], ['heading-6', 'Heading 6'], ['quote', 'Quote'], ['code', 'Code'],
  ['list-unordered', 'Bulleted list'], ['list-ordered', 'Numbered list']];

// The file fields Strapi's admin keeps in an image block.
const IMAGE_FIELDS = ['name', 'alternativeText', 'url', 'caption', 'width', 'height', 'formats', 'hash', 'ext', 'mime', 'size',
  'previewUrl', 'provider', 'provider_metadata', 'createdAt', 'updatedAt'];

export function imageBlock(f) {
  const image = {};
  for (const k of IMAGE_FIELDS) if (f[k] !== undefined) image[k] = f[k];
  if (typeof image.formats === 'string') { try { image.formats = JSON.parse(image.formats); } catch { /* kept as it is */ } }
  image.alternativeText = image.alternativeText || image.name;
  return {type: 'image', image, children: [{type: 'text', text: ''}]};
}

const atoms = new WeakMap(); // element -> the unknown inline node it stands for
const editors = new WeakMap(); // editable element -> its block's state

// --- the JSON side -------------------------------------------------------

const isText = n => n != null && typeof n === 'object' && typeof n.text === 'string' && (n.type === 'text' || n.type === undefined);
const isLink = n => n != null && typeof n === 'object' && n.type === 'link' && Array.isArray(n.children);
const len = n => isText(n) ? n.text.length : isLink(n) ? n.children.reduce((s, c) => s + len(c), 0) : 1;
// plain: the text of inline nodes; an unknown node counts as one character.
const plain = nodes => nodes.map(n => isText(n) ? n.text : isLink(n) ? plain(n.children) : '\ufffc').join('');

function editable(b) {
  if (!b || typeof b !== 'object' || !Array.isArray(b.children)) return false;
  if (b.type === 'list') return b.children.every(li => li && ((li.type === 'list-item' && Array.isArray(li.children)) || (li.type === 'list' && editable(li))));
  return ['paragraph', 'heading', 'quote', 'code'].includes(b.type);
}

function kindOf(b) {
  if (b.type === 'heading') return 'heading-' + Math.min(6, Math.max(1, Number(b.level) || 1));
  if (b.type === 'list') return 'list-' + (b.format === 'ordered' ? 'ordered' : 'unordered');
  return b.type;
}

function sameMarks(a, b) {
  const ka = Object.keys(a).filter(k => k !== 'text'), kb = Object.keys(b).filter(k => k !== 'text');
  return ka.length === kb.length && ka.every(k => a[k] === b[k]);
}

// norm merges adjacent text nodes with the same marks (and adjacent links
// to the same URL) and drops empty text nodes and links.
export function norm(nodes) {
  const out = [];
  for (const n of nodes) {
    const p = out[out.length - 1];
    if (isText(n)) {
      if (n.text === '') continue;
      if (isText(p) && sameMarks(p, n)) out[out.length - 1] = {...p, text: p.text + n.text};
      else out.push(n);
    } else if (isLink(n)) {
      const kids = norm(n.children);
      if (!kids.length) continue;
      if (isLink(p) && p.url === n.url) out[out.length - 1] = {...p, children: norm(p.children.concat(kids))};
      else out.push({...n, children: kids});
    } else out.push(n);
  }
  return out;
}

const filled = nodes => nodes.length ? nodes : [{type: 'text', text: ''}];

// splitAt cuts inline nodes at a character offset (links cut in two).
function splitAt(nodes, pos) {
  const a = [], b = [];
  for (const n of nodes) {
    const l = len(n);
    if (pos <= 0) b.push(n);
    else if (pos >= l) a.push(n);
    else if (isText(n)) { a.push({...n, text: n.text.slice(0, pos)}); b.push({...n, text: n.text.slice(pos)}); }
    else { const [x, y] = splitAt(n.children, pos); a.push({...n, children: x}); b.push({...n, children: y}); }
    pos -= l;
  }
  return [a, b];
}

function eachText(nodes, f) {
  for (const n of nodes) { if (isText(n)) f(n); else if (isLink(n)) eachText(n.children, f); }
}

const unlink = nodes => nodes.flatMap(n => isLink(n) ? unlink(n.children) : [n]);

function splitLines(nodes) {
  const out = [];
  for (;;) {
    const i = plain(nodes).indexOf('\n');
    if (i < 0) { out.push(nodes); return out; }
    const [a, r] = splitAt(nodes, i);
    out.push(a);
    nodes = splitAt(r, 1)[1];
  }
}

// segments: a block's runs of inline nodes (one, or one per list item).
// A list's items are edited flat, each with its level: a nested list is a
// "list" node after an item, inside its parent list's children (Strapi's
// shape, with indentLevel).
function flat(b, level = 0, format = b.format) {
  return b.children.flatMap(c => c.type === 'list' ? flat(c, level + 1, c.format) : [{li: c, level, format}]);
}
// build nests flat items back: a deeper item opens a list after the item
// before it (one level at a time).
function build(b, entries) {
  const root = {...b, children: []};
  const stack = [root];
  for (const e of entries) {
    const l = Math.min(e.level, stack.length);
    while (stack.length - 1 > l) stack.pop();
    if (l === stack.length) {
      const sub = {type: 'list', format: e.format || b.format, indentLevel: l, children: []};
      stack[stack.length - 1].children.push(sub);
      stack.push(sub);
    }
    stack[stack.length - 1].children.push(e.li);
  }
  return root;
}
const segsOf = b => b.type === 'list' ? flat(b).map(x => x.li.children) : [b.children];
function withSegs(b, segs, levels) {
  if (b.type === 'list') {
    if (!segs.length) segs = [[]];
    const f = flat(b);
    return build(b, segs.map((s, i) => ({li: {...((f[i] && f[i].li) || {type: 'list-item'}), children: filled(norm(s))},
      level: levels ? levels[i] || 0 : f[i] ? f[i].level : 0, format: f[i] ? f[i].format : b.format})));
  }
  return {...b, children: filled(norm(segs[0]))};
}

// convert changes a block's kind, keeping its text (and its marks and
// links, but in a code block).
function convert(b, kind) {
  const segs = segsOf(b);
  let inl = b.type === 'list' ? segs.flatMap((s, i) => i ? [{type: 'text', text: '\n'}, ...s] : s) : segs[0];
  const [type, arg] = kind.startsWith('heading-') ? ['heading', Number(kind.slice(8))] : kind.startsWith('list-') ? ['list', kind.slice(5)] : [kind];
  const base = type === b.type ? {...b} : {type};
  if (type === 'code') inl = [{type: 'text', text: plain(unlink(inl)).replace(/\ufffc/g, '')}];
  if (type === 'heading') base.level = arg;
  if (type === 'list') {
    base.format = arg;
    if (b.type === 'list') return build({...base, children: []}, flat(b).map((x, i) => ({li: {type: 'list-item', children: filled(norm(segs[i]))}, level: x.level, format: x.level ? x.format : arg})));
    return {...base, children: splitLines(inl).map(s => ({type: 'list-item', children: filled(norm(s))}))};
  }
  return {...base, children: filled(norm(inl))};
}

// --- the DOM side --------------------------------------------------------

function drawInline(nodes, parent) {
  for (const n of nodes) {
    if (isText(n)) {
      let el = document.createTextNode(n.text);
      for (const [m, tag] of MARKS) if (n[m]) { const w = document.createElement(tag); w.append(el); el = w; }
      parent.append(el);
    } else if (isLink(n)) {
      const a = h('a', {href: safeLink(n.url) ? n.url : null, dataset: {url: String(n.url ?? '')}, rel: 'noopener noreferrer'});
      atoms.set(a, n);
      drawInline(n.children, a);
      parent.append(a);
    } else {
      const s = h('span', {class: 'atom', contenteditable: 'false'}, `[${n && n.type || 'node'}]`);
      atoms.set(s, n);
      parent.append(s);
    }
  }
}

// endLine: a text that ends with a new line shows that line (with a
// line break that readInline skips, as the browser's own).
function endLine(el, nodes) {
  if (plain(nodes).endsWith('\n')) el.append(h('br'));
}

// readInline reads an element back into inline nodes.
function readInline(root) {
  const out = [];
  const walk = (node, marks, into) => {
    for (const c of node.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) into.push({type: 'text', text: c.data, ...marks});
      else if (c.nodeType !== Node.ELEMENT_NODE) continue;
      else if (c.classList.contains('atom') && atoms.has(c)) into.push(atoms.get(c));
      else if (c.tagName === 'BR') { if (!trailing(c, root)) into.push({type: 'text', text: '\n', ...marks}); }
      else if (c.tagName === 'A' && into === out) {
        const orig = atoms.get(c) || {};
        const kids = [];
        walk(c, marks, kids);
        into.push({...orig, type: 'link', url: c.dataset.url || c.getAttribute('href') || '', children: kids});
      } else if (TAG_MARK[c.tagName]) walk(c, {...marks, [TAG_MARK[c.tagName]]: true}, into);
      else {
        // Lines the browser wrapped in a div or p are lines.
        if ((c.tagName === 'DIV' || c.tagName === 'P') && plain(into).length) into.push({type: 'text', text: '\n', ...marks});
        walk(c, marks, into);
      }
    }
  };
  walk(root, {}, out);
  return out;
}

// trailing: a line break with nothing after it in its block (the one the
// browser keeps in an empty line) is no text.
function trailing(node, root) {
  for (let n = node; n && n !== root; n = n.parentNode) {
    for (let s = n.nextSibling; s; s = s.nextSibling) if (s.nodeType === Node.ELEMENT_NODE || s.data !== '') return false;
  }
  return true;
}

function readBlock(el, b) {
  if (b.type === 'list') return withSegs(b, [...el.children].map(li => readInline(li)), [...el.children].map(li => Number(li.dataset.level) || 0));
  if (b.type === 'code') return {...b, children: [{type: 'text', text: plain(unlink(readInline(el))).replace(/\ufffc/g, '')}]};
  return withSegs(b, [readInline(el)]);
}

const domSegs = el => el.tagName === 'UL' || el.tagName === 'OL' ? [...el.children] : [el];

// Offsets: characters from a segment's start (a line break or an unknown
// node counts as one), as in the JSON.
function lengthOf(node) {
  if (node.nodeType === Node.TEXT_NODE) return node.data.length;
  if (node.nodeType !== Node.ELEMENT_NODE && node.nodeType !== Node.DOCUMENT_FRAGMENT_NODE) return 0;
  if (node.tagName === 'BR' || (node.classList && node.classList.contains('atom'))) return 1;
  let n = 0;
  for (const c of node.childNodes) n += lengthOf(c);
  return n;
}

function offsetIn(seg, node, off) {
  const r = document.createRange();
  r.setStart(seg, 0);
  r.setEnd(node, off);
  return lengthOf(r.cloneContents());
}

// pointAt finds an offset in the DOM; at the end of a text node, forward
// takes the start of the next one.
function pointAt(seg, target, forward) {
  let left = target;
  const find = el => {
    for (let i = 0; i < el.childNodes.length; i++) {
      const c = el.childNodes[i];
      if (c.nodeType === Node.TEXT_NODE) { if (left < c.data.length || (left === c.data.length && !forward)) return [c, left]; left -= c.data.length; }
      else if (c.tagName === 'BR' || c.classList.contains('atom')) { if (left === 0) return [el, i]; left -= 1; }
      else { const p = find(c); if (p) return p; }
    }
    return null;
  };
  return find(seg) || (forward && target > 0 ? pointAt(seg, target, false) : [seg, seg.childNodes.length]);
}

// The selection of an editor as [segment, start, end] triples.
function liveSel(el) {
  const s = getSelection();
  if (!s.rangeCount) return null;
  const r = s.getRangeAt(0);
  if (!el.contains(r.startContainer) || !el.contains(r.endContainer)) return null;
  const out = [];
  domSegs(el).forEach((seg, i) => {
    if (!r.intersectsNode(seg)) return;
    const a = seg.contains(r.startContainer) ? offsetIn(seg, r.startContainer, r.startOffset) : 0;
    const b = seg.contains(r.endContainer) ? offsetIn(seg, r.endContainer, r.endOffset) : lengthOf(seg);
    out.push([i, a, b]);
  });
  return out.length ? out : null;
}

function restoreSel(el, sel) {
  const segs = domSegs(el);
  if (!sel || !sel.length || !segs.length) return;
  const first = sel[0], last = sel[sel.length - 1];
  const sa = segs[Math.min(first[0], segs.length - 1)], sb = segs[Math.min(last[0], segs.length - 1)];
  const r = document.createRange();
  const collapsed = sel.length === 1 && first[1] === first[2];
  r.setStart(...pointAt(sa, first[1], !collapsed));
  r.setEnd(...pointAt(sb, last[2], false));
  const s = getSelection();
  s.removeAllRanges();
  s.addRange(r);
}

// safeLink: links this editor writes (and shows as links): http(s),
// mailto, or a path on this site.
export function safeLink(u) {
  return /^(https?:\/\/[^\s/]+\S*|mailto:\S+|\/(?!\/)\S*)$/i.test(String(u ?? ''));
}

// marksAt: the marks every text of the selection has (the character
// before a caret), and whether it is in a link, for the toolbar's state.
function marksAt(it) {
  const on = {};
  const sel = liveSel(it.el);
  if (!sel || !editable(it.block)) return on;
  const segs = segsOf(readBlock(it.el, it.block));
  let any = false;
  const all = {};
  for (const [s, a0, z] of sel) {
    const a = a0 === z ? Math.max(0, a0 - 1) : a0;
    const mid = splitAt(splitAt(segs[s] || [], a)[1], Math.max(z - a, 1))[0];
    for (const n of mid) if (isLink(n)) on.link = true;
    eachText(mid, n => {
      if (!n.text) return;
      for (const [m] of MARKS) all[m] = (any ? all[m] : true) && !!n[m];
      any = true;
    });
  }
  if (any) Object.assign(on, all);
  return on;
}

document.addEventListener('selectionchange', () => {
  const a = document.activeElement;
  const it = a && editors.get(a);
  if (!it) return;
  const sel = liveSel(a);
  if (sel) it.sel = sel;
  const on = marksAt(it);
  for (const [m, b] of Object.entries(it.buttons || {})) b.setAttribute('aria-pressed', String(!!on[m]));
});

// --- the editor ----------------------------------------------------------

export function blocksEditor(ctx, name, legend, st, opts) {
  const v = st[name];
  const box = h('fieldset', {class: 'field wide', dataset: {path: opts.path}}, h('legend', null, legend));
  if (v != null && !Array.isArray(v)) {
    box.append(h('p', {class: 'muted'}, 'This value is not a list of blocks: it is kept as it is (edit it through the API).'));
    return box;
  }
  const items = (v || []).map(b => ({block: b}));
  const list = h('div', {class: 'blocks'});
  // History: every change keeps the state before it (a run of typing is
  // one step), for Ctrl+Z and Ctrl+Shift+Z (or Ctrl+Y). Blocks are never
  // changed in place, so a state is the list of blocks.
  const past = [], future = [];
  const where = () => {
    const at = items.findIndex(x => x.el && x.el === document.activeElement);
    return {at, sel: at >= 0 ? liveSel(items[at].el) : null};
  };
  let shown = {blocks: items.map(x => x.block), at: -1, sel: null};
  let typed = 0;
  const sync = typing => {
    const now = Date.now();
    if (!(typing && typed && now - typed < 1000)) {
      past.push(shown);
      if (past.length > 200) past.shift();
      future.length = 0;
    }
    typed = typing ? now : 0;
    shown = {blocks: items.map(x => x.block), ...where()};
    st[name] = items.length ? items.map(i => i.block) : null;
    ctx.dirty();
  };
  const travel = (from, to) => {
    if (!from.length) return;
    to.push({...shown, ...where()});
    shown = from.pop();
    typed = 0;
    items.splice(0, items.length, ...shown.blocks.map(b => ({block: b})));
    draw();
    st[name] = items.length ? items.map(i => i.block) : null;
    ctx.dirty();
    const it = items[shown.at];
    if (it && it.el) { it.el.focus(); restoreSel(it.el, shown.sel); }
  };
  const undo = () => travel(past, future);
  const redo = () => travel(future, past);
  list.addEventListener('keydown', e => {
    const k = e.key.toLowerCase();
    if ((e.ctrlKey || e.metaKey) && !e.altKey && (k === 'z' || (k === 'y' && !e.shiftKey))) { e.preventDefault(); (k === 'z' && !e.shiftKey ? undo : redo)(); }
  });

  const draw = () => {
    clear(list);
    items.forEach((it, i) => list.append(drawItem(it, i)));
  };

  function drawItem(it, i) {
    const what = `block ${i + 1}`;
    const moves = moveButtons(items, i, () => { draw(); sync(); }, what);
    if (!editable(it.block)) {
      const t = it.block && typeof it.block === 'object' ? it.block.type : typeof it.block;
      const img = t === 'image' && it.block.image && typeof it.block.image === 'object' ? it.block.image : null;
      let fm = img && img.formats;
      if (typeof fm === 'string') { try { fm = JSON.parse(fm); } catch { fm = null; } }
      const src = img && safeURL((fm && fm.thumbnail && fm.thumbnail.url) || img.url);
      return h('div', {class: 'item'}, h('div', {class: 'item-head'}, h('strong', null, `${t} block (kept as it is)`), moves),
        src && src !== '#' ? h('div', {class: 'thumbs'}, h('figure', null, h('img', {src, alt: img.alternativeText || img.name || ''}), h('figcaption', null, img.name || ''))) : null);
    }
    const kind = select(KINDS, kindOf(it.block), {'aria-label': `Block ${i + 1} type`, onchange: e => {
      it.block = convert(readBlock(it.el, it.block), e.target.value);
      draw(); // the toolbar too: a code block has no marks
      sync();
      it.el.focus();
    }});
    const code = it.block.type === 'code';
    it.buttons = {};
    const fmt = h('span', {class: 'fmt', role: 'toolbar', 'aria-label': `Formatting of ${what}`});
    for (const [m, , text, title, key] of MARKS) {
      const b = button(text, () => toggleMark(it, i, m), {class: 'secondary small m-' + m, 'aria-label': `${title} in ${what}`,
        title: `${title} (Ctrl+${key === 'x' ? 'Shift+X' : key.toUpperCase()})`, 'aria-pressed': 'false', disabled: code, onmousedown: e => e.preventDefault()});
      it.buttons[m] = b;
      fmt.append(b);
    }
    it.buttons.link = button('Link', () => editLink(it, i), {class: 'secondary small', 'aria-label': `Link in ${what}`, title: 'Link (Ctrl+K)',
      'aria-pressed': 'false', disabled: code, onmousedown: e => e.preventDefault()});
    fmt.append(it.buttons.link);
    // Arrow keys move along the toolbar.
    fmt.addEventListener('keydown', e => {
      if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
      const bs = [...fmt.querySelectorAll('button:not([disabled])')];
      const at = bs.indexOf(document.activeElement);
      if (at < 0) return;
      e.preventDefault();
      bs[(at + (e.key === 'ArrowRight' ? 1 : bs.length - 1)) % bs.length].focus();
    });
    it.holder = h('div');
    redraw(it, i);
    return h('div', {class: 'item'}, h('div', {class: 'item-head'}, h('span', {class: 'row'}, kind, fmt), moves), it.holder);
  }

  // redraw draws a block's editable element from its JSON, and puts the
  // selection back when asked.
  function redraw(it, i, sel, focus) {
    const b = it.block;
    let el;
    if (b.type === 'list') {
      el = h(b.format === 'ordered' ? 'ol' : 'ul');
      for (const x of flat(b)) {
        const l = h('li', {class: 'lvl-' + Math.min(x.level, 6), dataset: {level: String(x.level)}});
        drawInline(x.li.children, l); endLine(l, x.li.children); el.append(l);
      }
    } else {
      el = h('div');
      if (b.type === 'code') el.append(plain(b.children));
      else drawInline(b.children, el);
      endLine(el, b.children);
    }
    el.className = 'rich b-' + kindOf(b);
    el.setAttribute('contenteditable', b.type === 'code' ? 'plaintext-only' : 'true');
    el.setAttribute('role', 'textbox');
    el.setAttribute('aria-multiline', 'true');
    el.setAttribute('aria-label', `Block ${i + 1} text`);
    el.addEventListener('input', () => { it.block = readBlock(el, it.block); sync(true); });
    // Paste and drop bring plain text only, never the clipboard's HTML.
    el.addEventListener('paste', e => {
      e.preventDefault();
      insertText(it, i, e.clipboardData ? e.clipboardData.getData('text/plain') : '', true);
    });
    el.addEventListener('drop', e => {
      e.preventDefault();
      const t = e.dataTransfer ? e.dataTransfer.getData('text/plain') : '';
      const r = document.caretRangeFromPoint ? document.caretRangeFromPoint(e.clientX, e.clientY) : null;
      if (!t || !r || !el.contains(r.startContainer)) return;
      el.focus();
      getSelection().removeAllRanges();
      getSelection().addRange(r);
      insertText(it, i, t, true);
    });
    // Enter splits a paragraph, heading or quote into two blocks, and adds
    // a list item in a list; Shift+Enter is a new line (written as \n).
    el.addEventListener('beforeinput', e => {
      const t = e.inputType;
      if (t === 'historyUndo' || t === 'historyRedo') { e.preventDefault(); (t === 'historyUndo' ? undo : redo)(); }
      else if (t === 'insertParagraph' && b.type !== 'list' && b.type !== 'code') { e.preventDefault(); splitBlock(it, i); }
      else if (t === 'insertLineBreak' || (t === 'insertParagraph' && b.type === 'code')) { e.preventDefault(); insertText(it, i, '\n', false); }
    });
    el.addEventListener('keydown', e => onKey(e, it, i));
    editors.set(el, it);
    clear(it.holder);
    it.holder.append(el);
    it.el = el;
    if (focus) { el.focus(); if (sel) restoreSel(el, sel); }
  }

  function onKey(e, it, i) {
    const mod = e.ctrlKey || e.metaKey;
    const code = it.block.type === 'code';
    const k = e.key.toLowerCase();
    if (mod && !e.altKey && !code) {
      const m = e.shiftKey ? (k === 'x' ? 'strikethrough' : null) : MARKS.find(x => x[4] === k && k !== 'x')?.[0];
      if (m) { e.preventDefault(); toggleMark(it, i, m); return; }
      if (k === 'k' && !e.shiftKey) { e.preventDefault(); editLink(it, i); return; }
    }
    // Tab and Shift+Tab indent and outdent the selected list items (an
    // item goes at most one level deeper than the one before it).
    if (e.key === 'Tab' && !mod && !e.altKey && it.block.type === 'list') {
      const sel = liveSel(it.el);
      if (!sel) return;
      const b = readBlock(it.el, it.block);
      const lv = flat(b).map(x => x.level);
      const was = lv.join();
      for (let s = sel[0][0]; s <= sel[sel.length - 1][0]; s++) lv[s] = e.shiftKey ? Math.max(0, lv[s] - 1) : Math.min(lv[s] + 1, s ? lv[s - 1] + 1 : 0);
      if (lv.join() === was) return; // nothing to do: Tab leaves the editor
      e.preventDefault();
      it.block = withSegs(b, segsOf(b), lv);
      redraw(it, i, sel, true);
      sync();
      return;
    }
    // Backspace at the start of a paragraph, heading or quote joins it to
    // the one before.
    const prose = t => ['paragraph', 'heading', 'quote'].includes(t);
    const prev = items[i - 1];
    if (e.key === 'Backspace' && !mod && prose(it.block.type) && prev && editable(prev.block) && prose(prev.block.type)) {
      const sel = liveSel(it.el);
      if (!sel || sel.length !== 1 || sel[0][1] !== 0 || sel[0][2] !== 0) return;
      e.preventDefault();
      const cur = readBlock(it.el, it.block);
      const at = len({type: 'link', children: prev.block.children});
      prev.block = {...prev.block, children: filled(norm(prev.block.children.concat(cur.children)))};
      items.splice(i, 1);
      draw();
      sync();
      prev.el.focus();
      restoreSel(prev.el, [[0, at, at]]);
    }
  }

  function splitBlock(it, i) {
    const sel = liveSel(it.el);
    if (!sel) return;
    const b = readBlock(it.el, it.block);
    const [x] = splitAt(b.children, sel[0][1]);
    const [, y] = splitAt(b.children, sel[sel.length - 1][2]);
    it.block = {...b, children: filled(norm(x))};
    const next = {block: {type: it.block.type === 'heading' ? 'paragraph' : it.block.type, children: filled(norm(y))}};
    items.splice(i + 1, 0, next);
    draw();
    sync();
    next.el.focus();
    restoreSel(next.el, [[0, 0, 0]]);
  }

  // insertText puts plain text (no marks) in place of the selection; in a
  // list, lines become items when asked.
  function insertText(it, i, text, lines) {
    const sel = liveSel(it.el) || it.sel;
    if (!sel) return;
    text = String(text).replace(/\r\n?/g, '\n');
    const b = readBlock(it.el, it.block);
    const segs = segsOf(b).map(s => s.slice());
    const first = sel[0], last = sel[sel.length - 1];
    const x = splitAt(segs[first[0]], first[1])[0];
    const y = splitAt(segs[last[0]], last[2])[1];
    const parts = b.type === 'list' && lines ? text.split('\n') : [text];
    const added = parts.map(l => l ? [{type: 'text', text: l}] : []);
    const end = plain(added[added.length - 1]).length + (added.length === 1 ? plain(x).length : 0);
    added[0] = x.concat(added[0]);
    added[added.length - 1] = added[added.length - 1].concat(y);
    segs.splice(first[0], last[0] - first[0] + 1, ...added);
    if (b.type === 'list') {
      const lv = flat(b).map(x => x.level);
      lv.splice(first[0], last[0] - first[0] + 1, ...added.map(() => lv[first[0]] || 0));
      it.block = withSegs({...b, children: []}, segs, lv);
    }
    else it.block = b.type === 'code' ? {...b, children: [{type: 'text', text: plain(segs[0])}]} : withSegs(b, segs);
    const at = first[0] + added.length - 1;
    redraw(it, i, [[at, end, end]], true);
    sync();
  }

  // change: apply f to the block's segments over the selection (the live
  // one, or the last one the editor had), then redraw.
  function change(it, i, f) {
    const sel = liveSel(it.el) || it.sel;
    if (!sel || it.block.type === 'code') return;
    const b = readBlock(it.el, it.block);
    const segs = segsOf(b).map(s => s.slice());
    if (f(segs, sel) === false) return;
    it.block = withSegs(b, segs);
    redraw(it, i, sel, true);
    sync();
  }

  function toggleMark(it, i, mark) {
    change(it, i, (segs, sel) => {
      // A caret marks the word around it.
      if (sel.length === 1 && sel[0][1] === sel[0][2]) {
        const t = plain(segs[sel[0][0]]);
        let a = sel[0][1], z = a;
        while (a > 0 && /[\p{L}\p{N}_]/u.test(t[a - 1])) a--;
        while (z < t.length && /[\p{L}\p{N}_]/u.test(t[z])) z++;
        if (a === z) return false;
        sel = [[sel[0][0], a, z]];
      }
      const parts = sel.map(([s, a, z]) => { const [x, r] = splitAt(segs[s], a); const [m, y] = splitAt(r, z - a); return [s, x, m, y]; });
      let all = true, any = false;
      for (const p of parts) eachText(p[2], n => { if (n.text) { any = true; if (!n[mark]) all = false; } });
      if (!any) return false;
      for (const [s, x, m, y] of parts) {
        const mm = m.map(n => isLink(n) ? {...n, children: n.children.map(c => ({...c}))} : isText(n) ? {...n} : n);
        eachText(mm, n => { if (all) delete n[mark]; else n[mark] = true; });
        segs[s] = x.concat(mm, y);
      }
    });
  }

  // editLink asks for the URL of the selection's link (http(s), mailto, or
  // a path); an empty URL removes the link.
  function editLink(it, i) {
    const sel = liveSel(it.el) || it.sel;
    if (!sel) return;
    const b = readBlock(it.el, it.block);
    const segs = segsOf(b);
    // The link the selection is in, if any.
    let cur = null;
    const [s0, a0] = sel[0];
    let pos = 0;
    const collapsed = sel.length === 1 && sel[0][1] === sel[0][2];
    for (const n of segs[s0]) {
      const l = len(n);
      if (isLink(n) && a0 >= pos && (collapsed ? a0 <= pos + l : a0 < pos + l)) cur = {n, from: pos, to: pos + l};
      pos += l;
    }
    if (collapsed && !cur) return;
    const input = h('input', {type: 'url', id: 'link-url', value: cur ? cur.n.url : '', placeholder: 'https://', autocomplete: 'off'});
    const err = h('p', {class: 'field-error', role: 'alert', id: 'link-url-err'});
    input.setAttribute('aria-describedby', err.id);
    const apply = url => {
      const target = collapsed ? [[s0, cur.from, cur.to]] : sel;
      change(it, i, (sg) => {
        for (const [s, a, z] of target) {
          const [x, r] = splitAt(sg[s], a);
          const [m, y] = splitAt(r, z - a);
          const flat = unlink(m);
          sg[s] = x.concat(url ? [{...(cur && cur.n ? cur.n : {}), type: 'link', url, children: flat}] : flat, y);
        }
      });
    };
    const ok = () => {
      const url = input.value.trim();
      if (url && !safeLink(url)) { err.textContent = 'A link is http://, https://, mailto: or a path starting with /.'; return; }
      d.close();
      apply(url);
    };
    input.addEventListener('keydown', e => { if (e.key === 'Enter') { e.preventDefault(); ok(); } });
    const d = dialog(cur ? 'Edit the link' : 'Add a link', [h('div', {class: 'field'}, h('label', {for: input.id}, 'URL'), input,
      h('p', {class: 'hint'}, 'http://, https://, mailto: or a path on this site (/...). Empty removes the link.'), err)],
    [button('Apply', ok), cur ? button('Remove link', () => { d.close(); apply(''); }, {class: 'secondary'}) : null]);
    input.focus();
  }

  draw();
  const add = button('Add a block', () => {
    const it = {block: {type: 'paragraph', children: [{type: 'text', text: ''}]}};
    items.push(it);
    draw();
    sync();
    it.el.focus();
  }, {class: 'secondary small'});
  const addImage = button('Add an image', async () => {
    const picked = await pickMedia({multiple: true, allowedTypes: ['images']});
    if (!picked.length) return;
    items.push(...picked.map(f => ({block: imageBlock(f)})));
    draw();
    sync();
  }, {class: 'secondary small'});
  box.append(h('p', {class: 'hint'}, 'Enter starts a new block, Shift+Enter a new line. Ctrl+B, I, U, E (code), Shift+X (strikethrough), K (link). In a list, Tab and Shift+Tab indent and outdent items. Paste brings plain text.'),
    list, h('div', {class: 'row'}, add, addImage), h('p', {class: 'field-error', role: 'alert'}));
  return box;
}
