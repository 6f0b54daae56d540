// Quire reader: progressive enhancement only. Every page reads fine without this script.
(function () {
  'use strict';
  var root = document.documentElement;
  var THEME_KEY = 'quire-theme';
  root.classList.add('js');

  // Before first paint: the visitor's saved theme, if the site lets them choose.
  function savedTheme() {
    try { return localStorage.getItem(THEME_KEY); } catch { return null; }
  }
  if (root.getAttribute('data-theme-toggle') !== 'off') {
    var saved = savedTheme();
    if (saved === 'light' || saved === 'dark') root.setAttribute('data-theme', saved);
  }

  function currentTheme() {
    var set = root.getAttribute('data-theme');
    if (set === 'light' || set === 'dark') return set;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  function setupThemeToggle() {
    document.querySelectorAll('[data-toggle-theme]').forEach(function (button) {
      button.addEventListener('click', function () {
        var next = currentTheme() === 'dark' ? 'light' : 'dark';
        root.setAttribute('data-theme', next);
        try { localStorage.setItem(THEME_KEY, next); } catch { /* private mode: not remembered */ }
      });
    });
  }

  // Tabs: the WAI-ARIA pattern (click, arrows, Home/End).
  function setupTabs() {
    document.querySelectorAll('.tabs').forEach(function (tabs) {
      var list = tabs.querySelector('[role="tablist"]');
      if (!list) return;
      var buttons = Array.prototype.slice.call(list.querySelectorAll('[role="tab"]'));
      function select(index, focus) {
        buttons.forEach(function (button, i) {
          var selected = i === index;
          button.setAttribute('aria-selected', selected ? 'true' : 'false');
          button.tabIndex = selected ? 0 : -1;
          var panel = document.getElementById(button.getAttribute('aria-controls'));
          if (panel) panel.hidden = !selected;
        });
        if (focus) buttons[index].focus();
      }
      buttons.forEach(function (button, i) {
        button.addEventListener('click', function () { select(i, false); });
        button.addEventListener('keydown', function (event) {
          var next = null;
          if (event.key === 'ArrowRight') next = (i + 1) % buttons.length;
          else if (event.key === 'ArrowLeft') next = (i - 1 + buttons.length) % buttons.length;
          else if (event.key === 'Home') next = 0;
          else if (event.key === 'End') next = buttons.length - 1;
          if (next !== null) { event.preventDefault(); select(next, true); }
        });
      });
    });
  }

  // navigator.clipboard exists on secure origins only; elsewhere the code is selected and copied the old way.
  function copyText(pre) {
    var text = pre.innerText.replace(/\n$/, '');
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    var range = document.createRange();
    range.selectNodeContents(pre);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = document.execCommand && document.execCommand('copy');
    return copied ? Promise.resolve() : Promise.reject(new Error('copy refused'));
  }

  function setupCopyButtons() {
    document.querySelectorAll('.copy-button[data-copy]').forEach(function (button) {
      var pre = document.getElementById(button.getAttribute('data-copy'));
      if (!pre) return;
      button.hidden = false;
      button.addEventListener('click', function () {
        copyText(pre).then(function () {
          button.textContent = 'Copied';
          setTimeout(function () { button.textContent = 'Copy'; }, 1500);
        }, function () { /* the code stays selected for Ctrl+C */ });
      });
    });
  }

  function setupSidebarToggle() {
    var button = document.querySelector('.sidebar-toggle');
    if (!button) return;
    var sidebar = document.getElementById('sidebar');
    var header = document.querySelector('.site-header');
    button.addEventListener('click', function () {
      var open = document.body.classList.toggle('sidebar-open');
      if (sidebar && header) sidebar.style.top = open ? Math.max(0, header.getBoundingClientRect().bottom) + 'px' : '';
      button.setAttribute('aria-expanded', open ? 'true' : 'false');
      button.setAttribute('aria-label', open ? 'Close navigation' : 'Open navigation');
    });
  }

  // Opening an anchor inside a closed expandable opens it.
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    for (var node = target; node; node = node.parentElement) if (node.tagName === 'DETAILS') node.open = true;
  }

  // Search: the endpoint answers GET ?query=… with { items: [{ title, href, section?, excerpt?, marks? }] },
  // marks being [start, end) offsets of the matched words in the excerpt.
  function setupSearch() {
    var url = document.body.getAttribute('data-search-url');
    var dialog = document.getElementById('search-dialog');
    if (!url || !dialog || typeof dialog.showModal !== 'function') return;
    var input = dialog.querySelector('input');
    var results = dialog.querySelector('.search-results');
    var timer = null;
    var controller = null;
    function open() { if (!dialog.open) { dialog.showModal(); input.focus(); input.select(); } }
    document.querySelectorAll('[data-open-search]').forEach(function (b) { b.addEventListener('click', open); });
    document.addEventListener('keydown', function (event) {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') { event.preventDefault(); open(); }
    });
    function show(items) {
      results.textContent = '';
      items.slice(0, 20).forEach(function (item) {
        if (!item || typeof item.href !== 'string' || !/^(\/|https?:)/.test(item.href)) return;
        var li = document.createElement('li');
        var a = document.createElement('a');
        a.href = item.href;
        a.textContent = String(item.title || item.href);
        if (item.section) {
          var section = document.createElement('span');
          section.className = 'search-section';
          section.textContent = String(item.section);
          a.appendChild(section);
        }
        if (item.excerpt) a.appendChild(excerptOf(String(item.excerpt), Array.isArray(item.marks) ? item.marks : []));
        li.appendChild(a);
        results.appendChild(li);
      });
      if (!results.firstChild && input.value.trim()) {
        var empty = document.createElement('li');
        empty.textContent = 'No results';
        results.appendChild(empty);
      }
    }
    // Text nodes and <mark> elements, never HTML: the excerpt is the site's text.
    function excerptOf(text, marks) {
      var small = document.createElement('small');
      var at = 0;
      marks.forEach(function (mark) {
        var start = Number(mark && mark[0]);
        var end = Number(mark && mark[1]);
        if (!(start >= at && end > start && end <= text.length)) return;
        small.appendChild(document.createTextNode(text.slice(at, start)));
        var m = document.createElement('mark');
        m.textContent = text.slice(start, end);
        small.appendChild(m);
        at = end;
      });
      small.appendChild(document.createTextNode(text.slice(at)));
      return small;
    }
    var ask = setupAsk(dialog, input);
    input.addEventListener('input', function () {
      if (ask) ask.typed(input.value.trim());
      clearTimeout(timer);
      timer = setTimeout(function () {
        var query = input.value.trim();
        if (controller) controller.abort();
        if (!query) { show([]); return; }
        controller = new AbortController();
        var target = new URL(url, location.href);
        target.searchParams.set('query', query);
        fetch(target, { signal: controller.signal, headers: { accept: 'application/json' } })
          .then(function (response) { return response.ok ? response.json() : { items: [] }; })
          .then(function (body) { show(Array.isArray(body && body.items) ? body.items : []); })
          .catch(function () { /* aborted or offline: keep the last results */ });
      }, 150);
    });
    dialog.querySelector('form').addEventListener('submit', function (event) {
      var first = results.querySelector('a');
      if (event.submitter && event.submitter.value === 'close') return;
      if (first) { event.preventDefault(); location.href = first.href; }
    });
  }

  // Ask: the endpoint streams server-sent events, each the whole answer so far as { blocks: [{ kind, text }],
  // sources: [{ title, href }], followUps: [text] }; `event: error` carries { error: { message } }. Everything is
  // built from text nodes: the answer is written by a model from the site's text.
  function setupAsk(dialog, input) {
    var url = document.body.getAttribute('data-ask-url');
    var button = dialog.querySelector('.ask-button');
    var answer = dialog.querySelector('.ask-answer');
    if (!url || !button || !answer || !window.ReadableStream) return null;
    var label = button.querySelector('.ask-question');
    var controller = null;
    // The answer shown: a follow-up continues its thread, the thumbs rate it.
    var shownId = null;
    function typed(question) {
      button.hidden = !question;
      label.textContent = question;
    }
    function element(tag, className, text) {
      var el = document.createElement(tag);
      if (className) el.className = className;
      if (text !== undefined) el.textContent = text;
      return el;
    }
    function render(event) {
      answer.textContent = '';
      if (typeof event.id === 'string') shownId = event.id;
      var list = null;
      (Array.isArray(event.blocks) ? event.blocks : []).forEach(function (block) {
        var text = String(block && block.text || '');
        if (block.kind === 'item') {
          if (!list) { list = element('ul'); answer.appendChild(list); }
          list.appendChild(element('li', '', text));
          return;
        }
        list = null;
        if (block.kind === 'heading') answer.appendChild(element('p', 'ask-heading', text));
        else if (block.kind === 'code') answer.appendChild(element('pre', '', text));
        else answer.appendChild(element('p', '', text));
      });
      var sources = (Array.isArray(event.sources) ? event.sources : []).filter(function (s) { return s && typeof s.href === 'string' && /^(\/|https?:)/.test(s.href); });
      if (sources.length) {
        answer.appendChild(element('p', 'ask-label', 'Sources'));
        var ul = element('ul', 'ask-sources');
        sources.forEach(function (source, i) {
          var a = element('a', '', '[' + (i + 1) + '] ' + String(source.title || source.href));
          a.href = source.href;
          var li = element('li');
          li.appendChild(a);
          ul.appendChild(li);
        });
        answer.appendChild(ul);
      }
      var followUps = Array.isArray(event.followUps) ? event.followUps : [];
      if (followUps.length) {
        answer.appendChild(element('p', 'ask-label', 'Ask next'));
        var more = element('div', 'ask-follow-ups');
        followUps.forEach(function (question) {
          var b = element('button', 'ask-follow-up', String(question));
          b.type = 'button';
          b.addEventListener('click', function () { input.value = String(question); typed(input.value); run(input.value, shownId); });
          more.appendChild(b);
        });
        answer.appendChild(more);
      }
    }
    // Once the answer is whole: "Was this helpful?", a thumb up or down, pressed again to take it back.
    function rating() {
      if (!shownId) return;
      var id = shownId;
      var box = element('div', 'ask-rating');
      box.setAttribute('role', 'group');
      box.setAttribute('aria-label', 'Was this answer helpful?');
      box.appendChild(element('span', 'ask-label', 'Was this helpful?'));
      var status = element('span', 'ask-rating-status');
      status.setAttribute('role', 'status');
      var buttons = [[1, 'Yes'], [-1, 'No']].map(function (choice) {
        var b = element('button', 'ask-rate', choice[1]);
        b.type = 'button';
        b.setAttribute('aria-pressed', 'false');
        b.addEventListener('click', function () {
          var value = b.getAttribute('aria-pressed') === 'true' ? null : choice[0];
          fetch(new URL(url + '/feedback', location.href), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answer: id, rating: value }) })
            .then(function (response) {
              if (!response.ok) throw new Error('HTTP ' + response.status);
              buttons.forEach(function (other) { other.setAttribute('aria-pressed', String(other === b && value !== null)); });
              status.textContent = value === null ? '' : 'Thank you for your feedback.';
            })
            .catch(function () { status.textContent = 'Your rating could not be sent.'; });
        });
        box.appendChild(b);
        return b;
      });
      box.appendChild(status);
      answer.appendChild(box);
    }
    function failed(message) {
      answer.textContent = '';
      answer.appendChild(element('p', 'ask-error', 'No answer: ' + message));
      answer.removeAttribute('aria-busy');
    }
    function run(question, previous) {
      if (!question) return;
      shownId = null;
      if (controller) controller.abort();
      controller = new AbortController();
      var signal = controller.signal;
      answer.hidden = false;
      answer.setAttribute('aria-busy', 'true');
      answer.textContent = '';
      answer.appendChild(element('p', 'ask-status', 'Reading the docs…'));
      var target = new URL(url, location.href);
      target.searchParams.set('question', question);
      if (previous) target.searchParams.set('previous', previous);
      fetch(target, { signal: signal, headers: { accept: 'text/event-stream' } }).then(function (response) {
        if (!response.ok) {
          return response.json().then(function (body) { failed(String(body && body.error && body.error.message || response.status)); }, function () { failed('HTTP ' + response.status); });
        }
        var reader = response.body.getReader();
        var decoder = new TextDecoder();
        var buffer = '';
        function pump() {
          return reader.read().then(function (chunk) {
            if (chunk.value) buffer += decoder.decode(chunk.value, { stream: true });
            var at;
            while ((at = buffer.indexOf('\n\n')) >= 0) {
              var block = buffer.slice(0, at);
              buffer = buffer.slice(at + 2);
              var name = (/^event: ?(.*)$/m.exec(block) || [])[1];
              var data = block.split('\n').filter(function (line) { return line.indexOf('data:') === 0; }).map(function (line) { return line.replace(/^data: ?/, ''); }).join('\n');
              if (name === 'done') { answer.removeAttribute('aria-busy'); rating(); return; }
              var value;
              try { value = JSON.parse(data); } catch { continue; }
              if (name === 'error') { failed(String(value && value.error && value.error.message || 'the answer failed')); return; }
              render(value);
            }
            if (chunk.done) { answer.removeAttribute('aria-busy'); return; }
            return pump();
          });
        }
        return pump();
      }).catch(function () { if (!signal.aborted) failed('the connection was lost'); });
    }
    button.addEventListener('click', function () { run(input.value.trim()); });
    return { typed: typed };
  }

  // The outline marks the section being read.
  function setupOutline() {
    var links = Array.prototype.slice.call(document.querySelectorAll('.outline a[href^="#"]'));
    if (!links.length || !('IntersectionObserver' in window)) return;
    var byId = {};
    links.forEach(function (a) { byId[decodeURIComponent(a.getAttribute('href').slice(1))] = a; });
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        links.forEach(function (a) { a.classList.remove('active'); });
        var link = byId[entry.target.id];
        if (link) link.classList.add('active');
      });
    }, { rootMargin: '0px 0px -70% 0px' });
    Object.keys(byId).forEach(function (id) { var el = document.getElementById(id); if (el) observer.observe(el); });
  }

  function start() {
    setupThemeToggle();
    setupTabs();
    setupCopyButtons();
    setupSidebarToggle();
    setupSearch();
    setupOutline();
    openTarget();
    window.addEventListener('hashchange', openTarget);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
