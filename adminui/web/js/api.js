// The admin API client. The admin JWT lives in sessionStorage (it ends with
// the tab, and with its own expiry) and travels in the Authorization header
// only, never in a URL.

const KEY = 'stratum.admin';

export class ApiError extends Error {
  constructor(status, body) {
    const e = (body && body.error) || {};
    super(e.message || `Request failed (${status})`);
    this.status = status;
    this.name = e.name || 'Error';
    this.details = e.details || {};
  }
  // fieldErrors: {"path.to.field": message} from a ValidationError.
  fieldErrors() {
    const out = {};
    for (const e of this.details.errors || []) out[(e.path || []).join('.')] = e.message;
    return out;
  }
}

let expiryTimer;

export const session = {
  get() {
    try { return JSON.parse(sessionStorage.getItem(KEY)); } catch { return null; }
  },
  get token() { const s = this.get(); return s && s.token; },
  get user() { const s = this.get(); return s && s.user; },
  set(token, user) {
    sessionStorage.setItem(KEY, JSON.stringify({token, user}));
    this.watch();
  },
  clear(reason) {
    sessionStorage.removeItem(KEY);
    clearTimeout(expiryTimer);
    window.dispatchEvent(new CustomEvent('admin:logout', {detail: reason}));
  },
  // watch ends the session when the JWT expires.
  watch() {
    clearTimeout(expiryTimer);
    const t = this.token;
    if (!t) return;
    let exp = 0;
    try { exp = JSON.parse(atob(t.split('.')[1].replace(/-/g, '+').replace(/_/g, '/'))).exp; } catch { /* not a JWT */ }
    if (!exp) return;
    const ms = exp * 1000 - Date.now();
    if (ms <= 0) { this.clear('Your session has expired.'); return; }
    expiryTimer = setTimeout(() => this.clear('Your session has expired.'), Math.min(ms, 2 ** 31 - 1));
  },
};

function headers(json) {
  const hd = {Accept: 'application/json'};
  if (json) hd['Content-Type'] = 'application/json';
  const t = session.token;
  if (t) hd.Authorization = 'Bearer ' + t;
  return hd;
}

async function readBody(res) {
  const text = await res.text();
  if (!text) return null;
  try { return JSON.parse(text); } catch { return {error: {message: text.slice(0, 200)}}; }
}

export async function api(method, path, body) {
  const res = await fetch(path, {
    method, cache: 'no-store', credentials: 'omit',
    headers: headers(body !== undefined),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await readBody(res);
  if (!res.ok) {
    if (res.status === 401 && session.token && !path.endsWith('/login')) session.clear('Your session has ended: log in again.');
    throw new ApiError(res.status, data);
  }
  return data;
}

export const get = p => api('GET', p);
export const post = (p, b = {}) => api('POST', p, b);
export const put = (p, b = {}) => api('PUT', p, b);
export const del = p => api('DELETE', p);

// uploadForm sends multipart data with progress (fetch cannot report an
// upload's progress): onProgress(fraction).
export function uploadForm(path, form, onProgress) {
  return new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('POST', path);
    x.setRequestHeader('Accept', 'application/json');
    if (session.token) x.setRequestHeader('Authorization', 'Bearer ' + session.token);
    x.upload.onprogress = e => e.lengthComputable && onProgress && onProgress(e.loaded / e.total);
    x.onload = () => {
      let data = null;
      try { data = JSON.parse(x.responseText); } catch { /* empty */ }
      if (x.status >= 200 && x.status < 300) resolve(data);
      else reject(new ApiError(x.status, data));
    };
    x.onerror = () => reject(new ApiError(0, {error: {message: 'The upload failed (network)'}}));
    x.send(form);
  });
}

// qs writes Strapi's bracketed query string from an object.
export function qs(obj) {
  const parts = [];
  const walk = (v, key) => {
    if (v == null) return;
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${key}[${i}]`));
    else if (typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, key ? `${key}[${k}]` : k);
    else parts.push(encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']') + '=' + encodeURIComponent(v));
  };
  walk(obj, '');
  return parts.length ? '?' + parts.join('&') : '';
}
