/* Quire integration sandbox: the Web platform an integration script sees inside its isolate.
 *
 * A bare V8 isolate has the language (Promise, JSON, Map, typed arrays) and nothing of the Web platform.
 * Scripts built with `@gitbook/runtime` (for Cloudflare Workers) use Request, Response, Headers, FormData
 * (the dispatcher posts events as multipart form data), URL, TextEncoder/TextDecoder, fetch, console,
 * timers, AbortController and some of crypto. This file defines just those, in plain JavaScript; it runs first
 * in every new context (from V8's code cache).
 *
 * The host is reached only through the few functions `__quireInstall` receives per context (log, fetch,
 * sleep, random bytes, digest, HMAC); the installer deletes itself, so the script cannot reach them raw.
 * Binary data crosses the boundary as base64 strings; bodies are UTF-8 text.
 */
(function () {
  'use strict';
  var G = globalThis;
  var host = null;

  function define(name, value) {
    Object.defineProperty(G, name, { value: value, writable: true, configurable: true, enumerable: false });
  }

  // ---- text ---------------------------------------------------------------------------------------------
  function utf8Encode(str) {
    str = String(str);
    var out = [];
    for (var i = 0; i < str.length; i++) {
      var c = str.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < str.length) {
        var d = str.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        } else c = 0xfffd;
      } else if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd;
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return new Uint8Array(out);
  }
  function utf8Decode(bytes) {
    var out = '';
    var i = 0;
    while (i < bytes.length) {
      var b = bytes[i++];
      var c;
      if (b < 0x80) c = b;
      else if (b >= 0xc0 && b < 0xe0 && i < bytes.length) c = ((b & 31) << 6) | (bytes[i++] & 63);
      else if (b >= 0xe0 && b < 0xf0 && i + 1 < bytes.length) {
        c = ((b & 15) << 12) | ((bytes[i] & 63) << 6) | (bytes[i + 1] & 63);
        i += 2;
      } else if (b >= 0xf0 && i + 2 < bytes.length) {
        c = ((b & 7) << 18) | ((bytes[i] & 63) << 12) | ((bytes[i + 1] & 63) << 6) | (bytes[i + 2] & 63);
        i += 3;
      } else c = 0xfffd;
      if (c > 0xffff) {
        c -= 0x10000;
        out += String.fromCharCode(0xd800 + (c >> 10), 0xdc00 + (c & 1023));
      } else out += String.fromCharCode(c);
    }
    return out;
  }
  function toBytes(data) {
    if (data instanceof Uint8Array) return data;
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return utf8Encode(String(data));
  }
  class TextEncoder {
    get encoding() { return 'utf-8'; }
    encode(str) { return utf8Encode(str === undefined ? '' : str); }
  }
  class TextDecoder {
    constructor(label) {
      var l = String(label || 'utf-8').toLowerCase();
      if (l !== 'utf-8' && l !== 'utf8') throw new RangeError('only utf-8 is supported, not ' + label);
    }
    get encoding() { return 'utf-8'; }
    decode(data) { return data === undefined ? '' : utf8Decode(toBytes(data)); }
  }
  define('TextEncoder', TextEncoder);
  define('TextDecoder', TextDecoder);

  var B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function bytesToBase64(bytes) {
    var out = '';
    for (var i = 0; i < bytes.length; i += 3) {
      var n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63];
      out += i + 1 < bytes.length ? B64[(n >> 6) & 63] : '=';
      out += i + 2 < bytes.length ? B64[n & 63] : '=';
    }
    return out;
  }
  function base64ToBytes(str) {
    str = String(str).replace(/[\s=]/g, '');
    var out = [];
    var bits = 0;
    var acc = 0;
    for (var i = 0; i < str.length; i++) {
      var v = B64.indexOf(str[i]);
      if (v < 0) throw new Error('invalid base64');
      acc = (acc << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out.push((acc >> bits) & 255);
      }
    }
    return new Uint8Array(out);
  }
  define('btoa', function btoa(str) {
    str = String(str);
    var bytes = new Uint8Array(str.length);
    for (var i = 0; i < str.length; i++) {
      var c = str.charCodeAt(i);
      if (c > 255) throw new Error('btoa: character out of Latin-1 range');
      bytes[i] = c;
    }
    return bytesToBase64(bytes);
  });
  define('atob', function atob(str) {
    var bytes = base64ToBytes(str);
    var out = '';
    for (var i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
    return out;
  });

  // ---- URL ----------------------------------------------------------------------------------------------
  function formDecode(s) {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  }
  function formEncode(s) {
    return encodeURIComponent(s).replace(/%20/g, '+').replace(/[!'()~]/g, function (c) {
      return '%' + c.charCodeAt(0).toString(16).toUpperCase();
    });
  }
  class URLSearchParams {
    constructor(init) {
      this._list = [];
      this._url = null;
      if (init === undefined || init === null) return;
      if (typeof init === 'string') this._parse(init);
      else if (init instanceof URLSearchParams) this._list = init._list.map(function (p) { return [p[0], p[1]]; });
      else if (typeof init[Symbol.iterator] === 'function') {
        for (var pair of init) this._list.push([String(pair[0]), String(pair[1])]);
      } else for (var k of Object.keys(init)) this._list.push([k, String(init[k])]);
    }
    _parse(s) {
      this._list = [];
      if (s[0] === '?') s = s.slice(1);
      for (var part of s.split('&')) {
        if (!part) continue;
        var eq = part.indexOf('=');
        this._list.push(eq < 0 ? [formDecode(part), ''] : [formDecode(part.slice(0, eq)), formDecode(part.slice(eq + 1))]);
      }
    }
    _update() { if (this._url) this._url._search = this._list.length ? '?' + this.toString() : ''; }
    append(k, v) { this._list.push([String(k), String(v)]); this._update(); }
    delete(k) { this._list = this._list.filter(function (p) { return p[0] !== k; }); this._update(); }
    get(k) { var p = this._list.find(function (p) { return p[0] === k; }); return p ? p[1] : null; }
    getAll(k) { return this._list.filter(function (p) { return p[0] === k; }).map(function (p) { return p[1]; }); }
    has(k) { return this._list.some(function (p) { return p[0] === k; }); }
    set(k, v) {
      k = String(k);
      var i = this._list.findIndex(function (p) { return p[0] === k; });
      if (i < 0) this._list.push([k, String(v)]);
      else {
        this._list[i][1] = String(v);
        this._list = this._list.filter(function (p, j) { return j <= i || p[0] !== k; });
      }
      this._update();
    }
    sort() { this._list.sort(function (a, b) { return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0; }); this._update(); }
    forEach(fn, thisArg) { for (var p of this._list) fn.call(thisArg, p[1], p[0], this); }
    keys() { return this._list.map(function (p) { return p[0]; })[Symbol.iterator](); }
    values() { return this._list.map(function (p) { return p[1]; })[Symbol.iterator](); }
    entries() { return this._list.map(function (p) { return [p[0], p[1]]; })[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    get size() { return this._list.length; }
    toString() { return this._list.map(function (p) { return formEncode(p[0]) + '=' + formEncode(p[1]); }).join('&'); }
  }
  define('URLSearchParams', URLSearchParams);

  var DEFAULT_PORTS = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443', 'ftp:': '21' };
  var ABSOLUTE = /^([a-zA-Z][a-zA-Z0-9+.-]*:)(\/\/([^/?#]*))?([^?#]*)(\?[^#]*)?(#.*)?$/;
  function normalizePath(path) {
    var out = [];
    var segments = path.split('/');
    for (var i = 0; i < segments.length; i++) {
      var s = segments[i];
      if (s === '..') { if (out.length > 1) out.pop(); if (i === segments.length - 1) out.push(''); }
      else if (s === '.') { if (i === segments.length - 1) out.push(''); }
      else out.push(s);
    }
    var joined = out.join('/');
    return joined[0] === '/' ? joined : '/' + joined;
  }
  function encodePath(path) {
    return path.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, function (c) { return encodeURIComponent(c); });
  }
  /** An absolute URL: http(s) and the other special schemes, plus opaque ones such as `data:`. */
  class URL {
    constructor(input, base) {
      input = String(input).trim();
      var m = ABSOLUTE.exec(input);
      if (!m || (m[2] === undefined && DEFAULT_PORTS[m[1].toLowerCase()])) {
        if (base === undefined) throw new TypeError('Invalid URL: ' + input);
        var b = base instanceof URL ? base : new URL(base);
        var rel;
        if (m && m[1].toLowerCase() === b.protocol) input = input.slice(m[1].length);
        if (input.slice(0, 2) === '//') rel = b.protocol + input;
        else if (input[0] === '/') rel = b.origin + input;
        else if (input[0] === '?') rel = b.origin + b.pathname + input;
        else if (input[0] === '#') rel = b.origin + b.pathname + b.search + input;
        else if (input === '') rel = b.origin + b.pathname + b.search;
        else rel = b.origin + b.pathname.slice(0, b.pathname.lastIndexOf('/') + 1) + input;
        m = ABSOLUTE.exec(rel);
        if (!m) throw new TypeError('Invalid URL: ' + input);
      }
      this._protocol = m[1].toLowerCase();
      this._special = Object.prototype.hasOwnProperty.call(DEFAULT_PORTS, this._protocol);
      var authority = m[3] || '';
      var at = authority.lastIndexOf('@');
      var userinfo = at >= 0 ? authority.slice(0, at) : '';
      var hostport = at >= 0 ? authority.slice(at + 1) : authority;
      var colon = userinfo.indexOf(':');
      this._username = colon >= 0 ? userinfo.slice(0, colon) : userinfo;
      this._password = colon >= 0 ? userinfo.slice(colon + 1) : '';
      var pm = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostport);
      if (!pm) throw new TypeError('Invalid URL: ' + input);
      this._hostname = pm[1].toLowerCase();
      if (this._special && !this._hostname && this._protocol !== 'file:') throw new TypeError('Invalid URL: ' + input);
      this._port = pm[2] && pm[2] !== DEFAULT_PORTS[this._protocol] ? String(Number(pm[2])) : '';
      var path = m[4] || '';
      this._hasAuthority = m[2] !== undefined;
      this._pathname = this._special ? normalizePath(encodePath(path.replace(/\\/g, '/'))) : path;
      this._search = m[5] && m[5] !== '?' ? m[5].replace(/[ "<>`]/g, encodeURIComponent) : '';
      this._hash = m[6] && m[6] !== '#' ? m[6] : '';
      this._params = new URLSearchParams(this._search);
      this._params._url = this;
    }
    get protocol() { return this._protocol; }
    get username() { return this._username; }
    get password() { return this._password; }
    get hostname() { return this._hostname; }
    get port() { return this._port; }
    set port(v) { this._port = v === '' || String(v) === DEFAULT_PORTS[this._protocol] ? '' : String(Number(v)); }
    get host() { return this._hostname + (this._port ? ':' + this._port : ''); }
    get origin() { return this._special ? this._protocol + '//' + this.host : 'null'; }
    get pathname() { return this._pathname; }
    set pathname(v) { this._pathname = this._special ? normalizePath(encodePath(String(v))) : String(v); }
    get search() { return this._search; }
    set search(v) { v = String(v); this._search = v && v !== '?' ? (v[0] === '?' ? v : '?' + v) : ''; this._params._parse(this._search); }
    get searchParams() { return this._params; }
    get hash() { return this._hash; }
    set hash(v) { v = String(v); this._hash = v && v !== '#' ? (v[0] === '#' ? v : '#' + v) : ''; }
    get href() {
      var auth = this._username ? this._username + (this._password ? ':' + this._password : '') + '@' : '';
      var prefix = this._hasAuthority || this._special ? this._protocol + '//' + auth + this.host : this._protocol;
      return prefix + this._pathname + this._search + this._hash;
    }
    toString() { return this.href; }
    toJSON() { return this.href; }
    static canParse(input, base) { try { new URL(input, base); return true; } catch { return false; } }
  }
  define('URL', URL);

  // ---- Headers, Blob, FormData ----------------------------------------------------------------------------
  class Headers {
    constructor(init) {
      this._map = new Map();
      if (!init) return;
      if (init instanceof Headers) init.forEach((v, k) => this.append(k, v));
      else if (typeof init[Symbol.iterator] === 'function') for (var p of init) this.append(p[0], p[1]);
      else for (var k of Object.keys(init)) this.append(k, init[k]);
    }
    append(k, v) {
      k = String(k).toLowerCase();
      v = String(v).trim();
      var old = this._map.get(k);
      this._map.set(k, old === undefined ? v : old + ', ' + v);
    }
    set(k, v) { this._map.set(String(k).toLowerCase(), String(v).trim()); }
    get(k) { var v = this._map.get(String(k).toLowerCase()); return v === undefined ? null : v; }
    has(k) { return this._map.has(String(k).toLowerCase()); }
    delete(k) { this._map.delete(String(k).toLowerCase()); }
    forEach(fn, thisArg) { for (var e of this.entries()) fn.call(thisArg, e[1], e[0], this); }
    entries() { return Array.from(this._map.entries()).sort(function (a, b) { return a[0] < b[0] ? -1 : 1; })[Symbol.iterator](); }
    keys() { return Array.from(this.entries(), function (e) { return e[0]; })[Symbol.iterator](); }
    values() { return Array.from(this.entries(), function (e) { return e[1]; })[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
    getSetCookie() { var v = this.get('set-cookie'); return v === null ? [] : [v]; }
  }
  define('Headers', Headers);

  class Blob {
    constructor(parts, options) {
      var chunks = (parts || []).map(function (p) { return p instanceof Blob ? p._bytes : toBytes(p); });
      var size = chunks.reduce(function (n, c) { return n + c.length; }, 0);
      this._bytes = new Uint8Array(size);
      var at = 0;
      for (var c of chunks) { this._bytes.set(c, at); at += c.length; }
      this.type = options && options.type ? String(options.type).toLowerCase() : '';
    }
    get size() { return this._bytes.length; }
    text() { return Promise.resolve(utf8Decode(this._bytes)); }
    arrayBuffer() { return Promise.resolve(this._bytes.slice().buffer); }
    slice(start, end, type) { return new Blob([this._bytes.slice(start, end)], { type: type }); }
  }
  class File extends Blob {
    constructor(parts, name, options) {
      super(parts, options);
      this.name = String(name);
      this.lastModified = (options && options.lastModified) || Date.now();
    }
  }
  define('Blob', Blob);
  define('File', File);

  class FormData {
    constructor() { this._list = []; }
    _value(v, filename) {
      if (v instanceof Blob) return v instanceof File && filename === undefined ? v : new File([v], filename === undefined ? 'blob' : filename, { type: v.type });
      return String(v);
    }
    append(k, v, filename) { this._list.push([String(k), this._value(v, filename)]); }
    set(k, v, filename) { this.delete(k); this.append(k, v, filename); }
    delete(k) { this._list = this._list.filter(function (p) { return p[0] !== k; }); }
    get(k) { var p = this._list.find(function (p) { return p[0] === k; }); return p ? p[1] : null; }
    getAll(k) { return this._list.filter(function (p) { return p[0] === k; }).map(function (p) { return p[1]; }); }
    has(k) { return this._list.some(function (p) { return p[0] === k; }); }
    forEach(fn, thisArg) { for (var p of this._list) fn.call(thisArg, p[1], p[0], this); }
    entries() { return this._list.map(function (p) { return [p[0], p[1]]; })[Symbol.iterator](); }
    keys() { return this._list.map(function (p) { return p[0]; })[Symbol.iterator](); }
    values() { return this._list.map(function (p) { return p[1]; })[Symbol.iterator](); }
    [Symbol.iterator]() { return this.entries(); }
  }
  define('FormData', FormData);

  function quoteName(s) { return String(s).replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A'); }
  function serializeFormData(form) {
    var boundary = '----quire' + bytesToBase64(randomBytes(12)).replace(/[+/=]/g, 'x');
    var parts = [];
    for (var p of form._list) {
      var head = '--' + boundary + '\r\nContent-Disposition: form-data; name="' + quoteName(p[0]) + '"';
      if (p[1] instanceof File) {
        parts.push(head + '; filename="' + quoteName(p[1].name) + '"\r\nContent-Type: ' + (p[1].type || 'application/octet-stream') + '\r\n\r\n' + utf8Decode(p[1]._bytes) + '\r\n');
      } else parts.push(head + '\r\n\r\n' + p[1] + '\r\n');
    }
    return { text: parts.join('') + '--' + boundary + '--\r\n', type: 'multipart/form-data; boundary=' + boundary };
  }
  function parseFormData(text, contentType) {
    var form = new FormData();
    var type = String(contentType || '');
    if (/^application\/x-www-form-urlencoded/i.test(type)) {
      for (var pair of new URLSearchParams(text)) form.append(pair[0], pair[1]);
      return form;
    }
    var bm = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(type);
    if (!/^multipart\/form-data/i.test(type) || !bm) throw new TypeError('the body is not form data (Content-Type: ' + type + ')');
    var delimiter = '--' + (bm[1] || bm[2]).trim();
    var chunks = text.split(delimiter);
    for (var i = 1; i < chunks.length; i++) {
      var chunk = chunks[i];
      if (chunk.slice(0, 2) === '--') break;
      chunk = chunk.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
      var split = chunk.search(/\r?\n\r?\n/);
      if (split < 0) continue;
      var headers = chunk.slice(0, split);
      var body = chunk.slice(split).replace(/^\r?\n\r?\n/, '');
      var nm = /name="([^"]*)"/i.exec(headers);
      if (!nm) continue;
      var fm = /filename="([^"]*)"/i.exec(headers);
      var tm = /content-type:\s*([^\r\n]+)/i.exec(headers);
      if (fm) form.append(nm[1], new File([body], fm[1], { type: tm ? tm[1] : '' }));
      else form.append(nm[1], body);
    }
    return form;
  }

  // ---- Request, Response ----------------------------------------------------------------------------------
  /** Turns any accepted body into bytes or text, and tells the Content-Type it implies. */
  function extractBody(body) {
    if (body === undefined || body === null) return { body: null, type: null };
    if (typeof body === 'string') return { body: body, type: 'text/plain;charset=UTF-8' };
    if (body instanceof URLSearchParams) return { body: body.toString(), type: 'application/x-www-form-urlencoded;charset=UTF-8' };
    if (body instanceof FormData) { var s = serializeFormData(body); return { body: s.text, type: s.type }; }
    if (body instanceof Blob) return { body: body._bytes, type: body.type || null };
    if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return { body: toBytes(body).slice(), type: null };
    return { body: String(body), type: 'text/plain;charset=UTF-8' };
  }
  class Body {
    _initBody(body, headers) {
      var extracted = extractBody(body);
      this._body = extracted.body;
      this._used = false;
      if (extracted.type && !headers.has('content-type')) headers.set('content-type', extracted.type);
    }
    get bodyUsed() { return this._used; }
    /** Not a stream: enough for code that checks `response.body` before reading it. */
    get body() {
      if (this._body === null) return null;
      return {
        locked: false,
        getReader: () => {
          var done = false;
          return {
            read: () => {
              if (done) return Promise.resolve({ done: true, value: undefined });
              done = true;
              return this.arrayBuffer().then(function (b) { return { done: false, value: new Uint8Array(b) }; });
            },
            releaseLock: function () {},
            cancel: function () { done = true; return Promise.resolve(); },
          };
        },
      };
    }
    _consume() {
      if (this._used) return Promise.reject(new TypeError('Body has already been used'));
      this._used = true;
      return Promise.resolve(this._body);
    }
    text() { return this._consume().then(function (b) { return b === null ? '' : typeof b === 'string' ? b : utf8Decode(b); }); }
    json() { return this.text().then(JSON.parse); }
    arrayBuffer() { return this._consume().then(function (b) { return b === null ? new ArrayBuffer(0) : toBytes(b).slice().buffer; }); }
    bytes() { return this.arrayBuffer().then(function (b) { return new Uint8Array(b); }); }
    blob() { var type = this.headers.get('content-type') || ''; return this.arrayBuffer().then(function (b) { return new Blob([b], { type: type }); }); }
    formData() { var type = this.headers.get('content-type'); return this.text().then(function (t) { return parseFormData(t, type); }); }
  }

  class Request extends Body {
    constructor(input, init) {
      super();
      init = init || {};
      var from = input instanceof Request ? input : null;
      this.url = from ? from.url : new URL(String(input)).href;
      this.method = String(init.method || (from ? from.method : 'GET')).toUpperCase();
      this.headers = new Headers(init.headers || (from ? from.headers : undefined));
      this.signal = init.signal || (from ? from.signal : null) || new AbortController().signal;
      this.redirect = init.redirect || 'follow';
      var body = init.body !== undefined ? init.body : from ? from._body : null;
      if (body !== null && body !== undefined && (this.method === 'GET' || this.method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.');
      this._initBody(body, this.headers);
    }
    clone() { return new Request(this); }
  }
  define('Request', Request);

  class Response extends Body {
    constructor(body, init) {
      super();
      init = init || {};
      this.status = init.status === undefined ? 200 : Number(init.status);
      if (!(this.status >= 200 && this.status <= 599)) throw new RangeError('invalid status ' + init.status);
      this.statusText = init.statusText === undefined ? '' : String(init.statusText);
      this.headers = new Headers(init.headers);
      this.type = 'default';
      this.url = init.url || '';
      this.redirected = false;
      this._initBody(body, this.headers);
    }
    get ok() { return this.status >= 200 && this.status < 300; }
    clone() {
      if (this._used) throw new TypeError('Body has already been used');
      var r = new Response(this._body, { status: this.status, statusText: this.statusText, headers: this.headers, url: this.url });
      return r;
    }
    static json(data, init) {
      var r = new Response(JSON.stringify(data), init);
      r.headers.set('content-type', 'application/json');
      return r;
    }
    static redirect(url, status) { return new Response(null, { status: status || 302, headers: { location: new URL(url).href } }); }
    static error() { var r = new Response(null, { status: 200 }); r.status = 0; r.type = 'error'; return r; }
  }
  define('Response', Response);

  // ---- AbortController, events ----------------------------------------------------------------------------
  class AbortSignal {
    constructor() { this.aborted = false; this.reason = undefined; this.onabort = null; this._listeners = []; }
    addEventListener(type, fn) { if (type === 'abort') this._listeners.push(fn); }
    removeEventListener(type, fn) { this._listeners = this._listeners.filter(function (l) { return l !== fn; }); }
    throwIfAborted() { if (this.aborted) throw this.reason; }
    _abort(reason) {
      if (this.aborted) return;
      this.aborted = true;
      this.reason = reason === undefined ? new Error('This operation was aborted') : reason;
      var event = { type: 'abort', target: this };
      if (this.onabort) this.onabort(event);
      for (var l of this._listeners) l(event);
    }
    static abort(reason) { var s = new AbortSignal(); s._abort(reason); return s; }
    static timeout(ms) { var s = new AbortSignal(); setTimeout(function () { s._abort(new Error('The operation timed out')); }, ms); return s; }
  }
  class AbortController {
    constructor() { this.signal = new AbortSignal(); }
    abort(reason) { this.signal._abort(reason); }
  }
  define('AbortSignal', AbortSignal);
  define('AbortController', AbortController);

  // ---- console, timers ------------------------------------------------------------------------------------
  function format(args) {
    return args.map(function (a) {
      if (typeof a === 'string') return a;
      if (a instanceof Error) return a.stack || String(a);
      try { var j = JSON.stringify(a); return j === undefined ? String(a) : j; } catch { return String(a); }
    }).join(' ');
  }
  function logger(level) { return function () { if (host) host.log(level, format(Array.from(arguments)).slice(0, 8192)); }; }
  define('console', {
    log: logger('info'), info: logger('info'), debug: logger('debug'), trace: logger('debug'),
    warn: logger('warn'), error: logger('error'),
  });

  var timers = new Map();
  var nextTimer = 1;
  function schedule(fn, ms, args, repeat) {
    var id = nextTimer++;
    var delay = Math.max(0, Number(ms) || 0);
    timers.set(id, true);
    var tick = function () {
      host.sleep(delay).then(function () {
        if (!timers.has(id)) return;
        if (!repeat) timers.delete(id);
        if (typeof fn === 'function') fn.apply(undefined, args);
        if (repeat && timers.has(id)) tick();
      });
    };
    tick();
    return id;
  }
  define('setTimeout', function setTimeout(fn, ms) { return schedule(fn, ms, Array.prototype.slice.call(arguments, 2), false); });
  define('setInterval', function setInterval(fn, ms) { return schedule(fn, Math.max(1, Number(ms) || 0), Array.prototype.slice.call(arguments, 2), true); });
  define('clearTimeout', function clearTimeout(id) { timers.delete(id); });
  define('clearInterval', function clearInterval(id) { timers.delete(id); });
  define('queueMicrotask', function queueMicrotask(fn) { Promise.resolve().then(fn); });
  define('structuredClone', function structuredClone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); });

  // ---- fetch ----------------------------------------------------------------------------------------------
  define('fetch', function fetch(input, init) {
    return new Promise(function (resolve, reject) {
      var request = new Request(input, init);
      if (request.signal.aborted) { reject(request.signal.reason); return; }
      request.signal.addEventListener('abort', function () { reject(request.signal.reason); });
      request.text().then(function (body) {
        var headers = {};
        request.headers.forEach(function (v, k) { headers[k] = v; });
        return host.fetch(JSON.stringify({ method: request.method, url: request.url, headers: headers, body: body }));
      }).then(function (json) {
        var r = JSON.parse(json);
        var response = new Response(r.status === 204 || r.status === 304 ? null : r.body, { status: r.status, headers: r.headers, url: request.url });
        resolve(response);
      }, function (error) {
        reject(new TypeError('fetch failed: ' + (error && error.message ? error.message : String(error))));
      });
    });
  });

  // ---- crypto ---------------------------------------------------------------------------------------------
  function randomBytes(n) {
    return base64ToBytes(host.random(n));
  }
  var HASHES = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
  function hashName(alg) {
    var name = typeof alg === 'string' ? alg : alg && (alg.name || alg);
    var n = HASHES[String(name).toUpperCase()];
    if (!n) throw new Error('unsupported hash ' + name);
    return n;
  }
  class CryptoKey {
    constructor(raw, hash, usages, extractable) {
      this.type = 'secret';
      this.algorithm = { name: 'HMAC', hash: { name: hash } };
      this.usages = usages;
      this.extractable = extractable;
      Object.defineProperty(this, '_raw', { value: raw });
    }
  }
  function bytesOut(b64) { return base64ToBytes(b64).buffer; }
  var subtle = {
    digest: function (alg, data) {
      try { return Promise.resolve(bytesOut(host.digest(hashName(alg), bytesToBase64(toBytes(data))))); } catch (e) { return Promise.reject(e); }
    },
    importKey: function (format, keyData, alg, extractable, usages) {
      try {
        if (format !== 'raw') throw new Error('only raw keys are supported');
        if (!alg || String(alg.name).toUpperCase() !== 'HMAC') throw new Error('only HMAC keys are supported');
        hashName(alg.hash);
        var hash = typeof alg.hash === 'string' ? alg.hash : alg.hash.name;
        return Promise.resolve(new CryptoKey(toBytes(keyData).slice(), hash.toUpperCase(), usages, extractable));
      } catch (e) { return Promise.reject(e); }
    },
    sign: function (alg, key, data) {
      try {
        if (!(key instanceof CryptoKey)) throw new TypeError('not a CryptoKey');
        return Promise.resolve(bytesOut(host.hmac(hashName(key.algorithm.hash), bytesToBase64(key._raw), bytesToBase64(toBytes(data)))));
      } catch (e) { return Promise.reject(e); }
    },
    verify: function (alg, key, signature, data) {
      return subtle.sign(alg, key, data).then(function (expected) {
        var a = new Uint8Array(expected);
        var b = toBytes(signature);
        if (a.length !== b.length) return false;
        var diff = 0;
        for (var i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
        return diff === 0;
      });
    },
  };
  define('crypto', {
    subtle: subtle,
    getRandomValues: function (array) {
      if (!ArrayBuffer.isView(array) || array.byteLength > 65536) throw new Error('getRandomValues: an integer array of at most 65536 bytes');
      new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(randomBytes(array.byteLength));
      return array;
    },
    randomUUID: function () {
      var b = randomBytes(16);
      b[6] = (b[6] & 0x0f) | 0x40;
      b[8] = (b[8] & 0x3f) | 0x80;
      var h = Array.from(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
      return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
    },
  });
  define('CryptoKey', CryptoKey);

  // ---- the worker globals and the dispatcher --------------------------------------------------------------
  define('self', G);
  // @gitbook/runtime reads the build mode from a global (its CLI defines it at build time; a bundle built
  // without that define still finds it here). Published scripts run in production mode.
  define('MODE', 'production');
  define('navigator', { userAgent: 'Quire-Integration-Runtime' });

  /**
   * Called by the host once per context: receives the host functions, then calls the script's handler.
   */
  define('__quireInstall', function (hostFunctions) {
    host = hostFunctions;
    delete G.__quireInstall;
  });
  define('__quireDispatch', function (handler, requestJson, envJson) {
    delete G.__quireDispatch;
    var r = JSON.parse(requestJson);
    var env = JSON.parse(envJson);
    var request = new Request(r.url, { method: r.method, headers: r.headers, body: r.method === 'GET' || r.method === 'HEAD' ? null : r.body });
    var pending = [];
    var ctx = {
      waitUntil: function (p) { pending.push(Promise.resolve(p).catch(function (e) { console.error('waitUntil: ' + (e && e.stack || e)); })); },
      passThroughOnException: function () {},
    };
    return Promise.resolve()
      .then(function () { return handler.fetch(request, env, ctx); })
      .then(function (response) {
        if (!(response instanceof Response)) throw new TypeError('the fetch handler did not return a Response');
        var headers = {};
        response.headers.forEach(function (v, k) { headers[k] = v; });
        return response.text().then(function (body) {
          return Promise.all(pending).then(function () { return JSON.stringify({ status: response.status, headers: headers, body: body }); });
        });
      });
  });
})();
