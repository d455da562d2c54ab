/**
 * The approvals page's script (./approvals-page.ts), plain browser JavaScript kept
 * as text: the page has no build step. Rules it keeps:
 * - the token lives in sessionStorage and travels only in the Authorization header;
 * - the live stream is read with fetch() (EventSource cannot send that header);
 * - every value from a request is set with textContent, never as HTML.
 */
export const PAGE_SCRIPT = String.raw`
'use strict';
(function () {
  var KEY = 'hookwise.approvals.token';
  var RETRY_MS = 2000;
  var cards = new Map();
  var skew = 0;
  var stream = null;
  var retry = null;
  var you = null;

  function $(id) { return document.getElementById(id); }
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function token() { return sessionStorage.getItem(KEY); }
  function now() { return Date.now() + skew; }
  function setStatus(text, live) {
    $('status').textContent = text;
    $('status').className = live ? 'live' : '';
  }
  function api(path, init) {
    init = init || {};
    var headers = Object.assign({}, init.headers || {}, { authorization: 'Bearer ' + token() });
    return fetch(path, Object.assign({}, init, { headers: headers, cache: 'no-store', credentials: 'omit' }));
  }
  function errorOf(res) {
    return res.json().then(function (body) {
      return String((body && body.error) || res.status + ' ' + res.statusText).replace(/^hookwise serve: /, '');
    }, function () { return res.status + ' ' + res.statusText; });
  }

  function showLogin(message) {
    stop();
    sessionStorage.removeItem(KEY);
    you = null;
    cards.clear();
    $('pending').replaceChildren();
    $('answered').replaceChildren();
    $('board').hidden = true;
    $('forget').hidden = true;
    $('login').hidden = false;
    $('who').textContent = '';
    setStatus('', false);
    $('login-error').textContent = message || '';
    $('token').focus();
  }
  function showBoard() {
    $('login').hidden = true;
    $('board').hidden = false;
    $('forget').hidden = false;
    connect();
  }

  function stop() {
    clearTimeout(retry);
    if (stream) stream.abort();
    stream = null;
  }
  function later() {
    clearTimeout(retry);
    retry = setTimeout(connect, RETRY_MS);
  }

  /** The live stream: Server-Sent Events read from a fetch() body, so the token goes in a header. */
  async function connect() {
    stop();
    var controller = new AbortController();
    stream = controller;
    setStatus('connecting…', false);
    var res;
    try {
      res = await api('/v1/approvals/events', { signal: controller.signal, headers: { accept: 'text/event-stream' } });
    } catch (error) {
      if (!controller.signal.aborted) { setStatus('cannot reach the server; retrying…', false); later(); }
      return;
    }
    if (res.status === 401) { showLogin('The server refused this token: ' + (await errorOf(res))); return; }
    if (!res.ok || !res.body) { setStatus('error: ' + (await errorOf(res)) + '; retrying…', false); later(); return; }
    setStatus('live', true);
    var reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    var buffer = '';
    try {
      for (;;) {
        var chunk = await reader.read();
        if (chunk.done) break;
        buffer += chunk.value.replace(/\r\n?/g, '\n');
        var cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          var block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          dispatch(block);
        }
      }
    } catch (error) {
      // Aborted by us, or the connection was cut: either way, below.
    }
    if (stream === controller) { setStatus('reconnecting…', false); later(); }
  }

  function dispatch(block) {
    var event = 'message';
    var data = [];
    block.split('\n').forEach(function (line) {
      if (line === '' || line.charAt(0) === ':') return;
      var i = line.indexOf(':');
      var field = i < 0 ? line : line.slice(0, i);
      var value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    });
    if (data.length === 0) return;
    var payload = JSON.parse(data.join('\n'));
    if (event === 'snapshot') snapshot(payload);
    else if (event === 'request') upsert(payload);
    else if (event === 'answered' || event === 'gone') settle(payload);
  }

  function snapshot(payload) {
    skew = Date.parse(payload.now) - Date.now();
    you = payload.you;
    $('who').textContent = 'signed in as ' + you.name + ' (tenant ' + you.tenant + ')';
    var ids = new Set(payload.approvals.map(function (a) { return a.id; }));
    cards.forEach(function (card, id) { if (!ids.has(id)) { card.node.remove(); cards.delete(id); } });
    payload.approvals.slice().reverse().forEach(upsert);
    refresh();
  }

  function upsert(approval) {
    if (approval.state !== 'pending') return settle(approval);
    var known = cards.get(approval.id);
    if (known) { known.approval = approval; return; }
    var card = render(approval);
    cards.set(approval.id, card);
    $('pending').prepend(card.node);
    refresh();
  }

  /** What the person decides on, readably: the command or path first, then the whole input. */
  function describeInput(input) {
    var box = el('div', 'input');
    if (!input || typeof input !== 'object') return box;
    var shown = {};
    if (typeof input.command === 'string') {
      box.append(el('pre', 'command', input.command));
      shown.command = true;
    }
    ['file_path', 'path', 'notebook_path', 'url', 'pattern'].forEach(function (name) {
      if (typeof input[name] !== 'string') return;
      var line = el('div', 'field');
      line.append(el('span', 'label', name), el('code', '', input[name]));
      box.append(line);
      shown[name] = true;
    });
    var rest = Object.keys(input).filter(function (k) { return !shown[k]; });
    if (rest.length > 0) box.append(el('pre', 'json', JSON.stringify(input, null, 2)));
    return box;
  }

  function render(approval) {
    var node = el('li', 'card');
    node.dataset.id = approval.id;
    var head = el('div', 'head');
    var age = el('span', 'age');
    var expiry = el('span', 'expiry');
    head.append(el('span', 'tool', approval.tool || approval.event), el('span', 'event', approval.event), age, expiry);
    node.append(head, describeInput(approval.input));
    if (approval.hook || approval.reason) {
      var why = el('p', 'why');
      why.append(el('span', 'label', 'asked by'), el('strong', 'hook', approval.hook || 'a hook'));
      if (approval.reason) why.append(document.createTextNode(': '), el('span', 'reason', approval.reason));
      node.append(why);
    }
    node.append(el('p', 'meta', 'session ' + approval.sessionId + ' · id ' + approval.id));

    var allowed = approval.allowed || { approve: false, session: false };
    var form = el('div', 'answer');
    var note = el('textarea', 'note');
    note.rows = 2;
    note.maxLength = 4000;
    note.placeholder = 'Note (optional): why, or what to do instead';
    note.setAttribute('aria-label', 'Note');
    form.append(note);
    var session = null;
    if (allowed.session) {
      var label = el('label', 'scope');
      session = el('input');
      session.type = 'checkbox';
      label.append(session, document.createTextNode(' approve for the rest of this session'));
      form.append(label);
    }
    var buttons = el('div', 'buttons');
    var approve = el('button', 'approve', 'Approve');
    var deny = el('button', 'deny', 'Deny');
    approve.type = deny.type = 'button';
    approve.disabled = !allowed.approve;
    buttons.append(approve, deny);
    if (!allowed.approve && allowed.why) buttons.append(el('span', 'hint', 'You cannot approve this: ' + allowed.why));
    var refused = el('p', 'refused');
    refused.setAttribute('role', 'alert');
    form.append(buttons, refused);
    node.append(form);

    var card = { approval: approval, node: node, age: age, expiry: expiry, refused: refused, buttons: [approve, deny] };
    approve.addEventListener('click', function () {
      answer(card, 'approve', note.value, session && session.checked ? 'session' : 'once');
    });
    deny.addEventListener('click', function () { answer(card, 'deny', note.value, 'once'); });
    tick(card);
    return card;
  }

  async function answer(card, decision, note, scope) {
    card.buttons.forEach(function (b) { b.disabled = true; });
    card.refused.textContent = '';
    var body = { scope: scope };
    if (note.trim() !== '') body.note = note.trim();
    var res;
    try {
      res = await api('/v1/approvals/' + encodeURIComponent(card.approval.id) + '/' + decision, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    } catch (error) {
      card.refused.textContent = 'The server did not answer; nothing was recorded. Try again.';
      enable(card);
      return;
    }
    if (res.ok) return settle(await res.json());
    var message = await errorOf(res);
    if (res.status === 401) return showLogin('The server refused this token: ' + message);
    if (res.status === 409) {
      card.refused.textContent = 'Your answer was not recorded: ' + message;
      card.node.classList.add('second');
      return;
    }
    card.refused.textContent = 'Refused: ' + message;
    enable(card);
  }
  function enable(card) {
    card.buttons[0].disabled = !(card.approval.allowed && card.approval.allowed.approve);
    card.buttons[1].disabled = false;
  }

  /**
   * A request that is no longer pending moves to the answered list, saying who decided
   * (and, after a refused second answer, keeps that message). The stream and the answer's
   * own response both say so, in either order: the second changes nothing.
   */
  function settle(approval) {
    if (!approval || !approval.id) return;
    var card = cards.get(approval.id);
    cards.delete(approval.id);
    var node = el('li', 'card settled');
    node.dataset.id = approval.id;
    var head = el('div', 'head');
    var state = approval.state === 'pending' ? 'withdrawn' : approval.state;
    var who = approval.state === 'expired' ? 'on expiry (' + approval.onExpiry + ')'
      : approval.answeredBy ? 'by ' + approval.answeredBy + (you && approval.answeredBy === you.name ? ' (you)' : '') : '';
    head.append(el('span', 'tool', approval.tool || approval.event), el('span', 'state-' + state, state), el('span', 'event', who));
    if (approval.scope === 'session' && approval.state === 'approved') head.append(el('span', 'event', 'for the rest of the session'));
    node.append(head, describeInput(approval.input));
    if (approval.note) {
      var note = el('p', 'note-shown');
      note.append(el('span', 'label', 'note'), el('span', '', approval.note));
      node.append(note);
    }
    if (card && card.refused.textContent) node.append(el('p', 'refused', card.refused.textContent));
    var list = $('answered');
    if (!card && list.querySelector('[data-id="' + CSS.escape(approval.id) + '"]')) return;
    if (card) card.node.remove();
    list.prepend(node);
    while (list.children.length > 20) list.lastElementChild.remove();
    refresh();
  }

  function refresh() {
    $('count').textContent = cards.size ? '(' + cards.size + ')' : '';
    $('empty').hidden = cards.size > 0;
    $('answered-title').hidden = $('answered').children.length === 0;
  }
  function span(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return s + ' s';
    var m = Math.floor(s / 60);
    if (m < 60) return m + ' min ' + String(s % 60).padStart(2, '0') + ' s';
    return Math.floor(m / 60) + ' h ' + String(m % 60).padStart(2, '0') + ' min';
  }
  function tick(card) {
    var a = card.approval;
    card.age.textContent = 'asked ' + span(now() - Date.parse(a.createdAt)) + ' ago';
    var left = Date.parse(a.expiresAt) - now();
    card.expiry.textContent = left > 0 ? 'expires in ' + span(left) + ', then ' + a.onExpiry : 'expired: ' + a.onExpiry;
  }

  setInterval(function () { cards.forEach(tick); }, 1000);
  $('login').addEventListener('submit', function (event) {
    event.preventDefault();
    var value = $('token').value.trim();
    if (!value) return;
    sessionStorage.setItem(KEY, value);
    $('token').value = '';
    $('login-error').textContent = '';
    showBoard();
  });
  $('forget').addEventListener('click', function () { showLogin(''); });
  if (token()) showBoard();
  else showLogin('');
})();
`;
