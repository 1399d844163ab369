/**
 * The live page's files, as text: kept in the source so that the page works wherever the
 * simulator runs (sources, the compiled bundles, the npm package) with no file to find at run
 * time and no build step. The script is plain browser JavaScript (no framework); it inserts names,
 * topics and event JSON as text, and only the message HTML the simulator's Markdown renderer made
 * (which escapes what users wrote) as HTML.
 */

export const LIVE_HTML = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Chat simulator · live</title>
<link rel="icon" href="/__simulator/live/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/__simulator/live/live.css">
<script src="/__simulator/live/live.js" defer></script>
</head>
<body>
<a class="skip" href="#messages-title">Skip to messages</a>
<header class="top">
  <h1 id="realm-name">Chat simulator</h1>
  <p id="watcher" class="watcher">Read-only live view</p>
  <p id="status" class="status" role="status">Connecting…</p>
</header>
<div class="layout">
  <nav aria-labelledby="channels-title">
    <h2 id="channels-title">Channels</h2>
    <ul id="views" class="views"></ul>
  </nav>
  <main>
    <h2 id="messages-title" tabindex="-1">All messages</h2>
    <ol id="messages" class="messages"></ol>
  </main>
  <aside aria-label="Users and events">
    <section aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <ul id="users" class="users"></ul>
    </section>
    <section aria-labelledby="events-title">
      <h2 id="events-title">Recent events</h2>
      <ol id="events" class="events"></ol>
    </section>
  </aside>
</div>
</body>
</html>
`;

export const LIVE_FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1d4f91"/><path d="M4 5h8M4 8h8M4 11h5" stroke="#fff" stroke-width="1.6" stroke-linecap="round"/></svg>
`;

export const LIVE_CSS = String.raw`*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #f5f6f8; }
h1, h2 { margin: 0 0 .5rem; line-height: 1.2; }
h1 { font-size: 1.25rem; }
h2 { font-size: 1rem; }
ul, ol { list-style: none; margin: 0; padding: 0; }
:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
.skip { position: absolute; left: .5rem; top: -4rem; background: #fff; padding: .5rem .75rem; z-index: 1; }
.skip:focus { top: .5rem; }
.top { background: #1d4f91; color: #fff; padding: .75rem 1rem; }
.top p { margin: .15rem 0 0; font-size: .875rem; }
.status { font-weight: 600; }
.status.problem { color: #ffd7a8; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem; padding: 1rem; }
.layout > * { min-width: 0; }
nav, main, aside > section { background: #fff; border: 1px solid #d5d9de; border-radius: 6px; padding: .75rem; }
aside > section + section { margin-top: 1rem; }
.views li { margin: 0; }
.views ul { margin: 0 0 .25rem 1rem; }
.views button { display: block; width: 100%; text-align: left; font: inherit; color: #1b1f24; background: none; border: 0; border-radius: 4px; padding: .3rem .5rem; cursor: pointer; overflow-wrap: anywhere; }
.views ul button { font-size: .875rem; color: #3d4650; }
.views button:hover { background: #eef1f5; }
.views button[aria-current="true"] { background: #dde7f5; font-weight: 600; }
.count { color: #59636e; font-weight: 400; }
.messages > li { border-top: 1px solid #e3e6ea; padding: .6rem 0; }
.messages > li:first-child { border-top: 0; }
.meta { display: flex; flex-wrap: wrap; gap: .15rem .6rem; font-size: .875rem; color: #59636e; }
.sender { color: #1b1f24; font-weight: 600; }
.content { overflow-wrap: anywhere; }
.content p { margin: .25rem 0; }
.content pre { overflow-x: auto; background: #f1f3f5; padding: .5rem; border-radius: 4px; }
.content table { display: block; overflow-x: auto; }
.content img { max-width: 100%; height: auto; }
.content blockquote { margin: .25rem 0; padding-left: .75rem; border-left: 3px solid #c9ced4; color: #3d4650; }
.empty { color: #59636e; font-style: italic; }
.users li { display: flex; align-items: baseline; gap: .4rem; padding: .15rem 0; overflow-wrap: anywhere; }
.dot { flex: none; width: .6rem; height: .6rem; border-radius: 50%; border: 1px solid #59636e; }
.dot.active { background: #1a7f37; border-color: #1a7f37; }
.dot.idle { background: #d29922; border-color: #d29922; }
.presence { color: #59636e; font-size: .8rem; }
.events li { border-top: 1px solid #e3e6ea; padding: .3rem 0; font-size: .875rem; }
.events li:first-child { border-top: 0; }
.events summary { cursor: pointer; overflow-wrap: anywhere; }
.events pre { margin: .3rem 0 0; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .8rem; background: #f1f3f5; padding: .4rem; border-radius: 4px; }
@media (min-width: 60em) {
  .layout { grid-template-columns: 15rem minmax(0, 1fr) 19rem; align-items: start; }
}
`;

export const LIVE_JS = String.raw`'use strict';
(function () {
  var API = '/api/v1';
  // Zulip's OFFLINE_THRESHOLD_SECS: a user is shown offline this long after their last report.
  var OFFLINE_AFTER_SECONDS = 140;
  var SHOWN_MESSAGES = 200;
  var SHOWN_EVENTS = 50;
  var SHOWN_TOPICS = 8;

  var el = function (id) { return document.getElementById(id); };
  var auth = null;
  var view = { kind: 'all' };
  var state = emptyState();
  var eventCount = 0;

  function emptyState() {
    return {
      realm: '', emptyTopicName: 'general chat', queueId: null, lastEventId: -1, clockOffset: 0,
      streams: new Map(), users: new Map(), presences: new Map(), messages: new Map()
    };
  }

  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function basicAuth(email, apiKey) {
    var bytes = new TextEncoder().encode(email + ':' + apiKey);
    var binary = '';
    bytes.forEach(function (b) { binary += String.fromCharCode(b); });
    return 'Basic ' + btoa(binary);
  }

  function sleep(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

  function setStatus(text, problem) {
    var status = el('status');
    status.textContent = text;
    status.classList.toggle('problem', Boolean(problem));
  }

  async function call(method, path, params) {
    var body = new URLSearchParams(params || {});
    var url = API + path + (method === 'GET' ? '?' + body : '');
    var response = await fetch(url, { method: method, headers: { Authorization: auth }, body: method === 'GET' ? undefined : body, cache: 'no-store' });
    var data = await response.json().catch(function () { return { result: 'error', msg: 'HTTP ' + response.status }; });
    if (data.result !== 'success') {
      var error = new Error(data.msg || 'HTTP ' + response.status);
      error.code = data.code;
      error.retryAfter = data['retry-after'];
      throw error;
    }
    return data;
  }

  // ---------------------------------------------------------------- the model

  function nowSeconds() { return Date.now() / 1000 + state.clockOffset; }

  function addStream(into, s) {
    into.streams.set(s.stream_id, { id: s.stream_id, name: s.name, privateChannel: Boolean(s.invite_only) });
  }

  function addUser(into, u) {
    into.users.set(u.user_id, { id: u.user_id, name: u.full_name, bot: Boolean(u.is_bot) });
  }

  function addMessage(into, m) {
    into.messages.set(m.id, {
      id: m.id, type: m.type, streamId: m.stream_id, topic: m.subject, content: m.content,
      sender: m.sender_full_name, timestamp: m.timestamp,
      dmWith: m.type === 'private' ? m.display_recipient.map(function (r) { return r.full_name; }) : null,
      streamName: m.type === 'stream' ? m.display_recipient : null
    });
  }

  async function register() {
    var data = await call('POST', '/register', {
      apply_markdown: 'true', client_gravatar: 'true', slim_presence: 'true', all_public_streams: 'true',
      client_capabilities: JSON.stringify({ notification_settings_null: true, simplified_presence_events: true, user_avatar_url_field_optional: true }),
      fetch_event_types: JSON.stringify(['realm', 'realm_user', 'presence', 'stream'])
    });
    var next = emptyState();
    next.realm = data.realm_name || '';
    next.emptyTopicName = data.realm_empty_topic_display_name || next.emptyTopicName;
    next.queueId = data.queue_id;
    next.lastEventId = data.last_event_id;
    next.clockOffset = data.server_timestamp - Date.now() / 1000;
    (data.streams || []).forEach(function (s) { addStream(next, s); });
    (data.realm_users || []).forEach(function (u) { addUser(next, u); });
    Object.keys(data.presences || {}).forEach(function (id) { next.presences.set(Number(id), data.presences[id]); });
    // The watcher's own messages, then every public channel's (also those it is not subscribed to).
    var narrows = [[], [{ operator: 'channels', operand: 'public' }]];
    for (var i = 0; i < narrows.length; i++) {
      var page = await call('GET', '/messages', { anchor: 'newest', num_before: String(SHOWN_MESSAGES), num_after: '0', apply_markdown: 'true', client_gravatar: 'true', narrow: JSON.stringify(narrows[i]) });
      page.messages.forEach(function (m) { addMessage(next, m); });
    }
    state = next;
    document.title = (state.realm ? state.realm + ' · ' : '') + 'Chat simulator · live';
    el('realm-name').textContent = state.realm || 'Chat simulator';
    draw();
  }

  function apply(event) {
    var ids;
    switch (event.type) {
      case 'message':
        addMessage(state, event.message);
        break;
      case 'update_message':
        ids = event.message_ids || [event.message_id];
        ids.forEach(function (id) {
          var m = state.messages.get(id);
          if (!m) return;
          if (id === event.message_id && typeof event.rendered_content === 'string') m.content = event.rendered_content;
          if (typeof event.subject === 'string') m.topic = event.subject;
          if (typeof event.new_stream_id === 'number') {
            m.streamId = event.new_stream_id;
            var moved = state.streams.get(event.new_stream_id);
            if (moved) m.streamName = moved.name;
          }
        });
        break;
      case 'delete_message':
        ids = event.message_ids || [event.message_id];
        ids.forEach(function (id) { state.messages.delete(id); });
        break;
      case 'stream':
        if (event.op === 'create') event.streams.forEach(function (s) { addStream(state, s); });
        else if (event.op === 'delete') event.streams.forEach(function (s) { state.streams.delete(s.stream_id); });
        else if (event.op === 'update' && event.property === 'name' && state.streams.has(event.stream_id)) state.streams.get(event.stream_id).name = event.value;
        else if (event.op === 'update' && event.property === 'invite_only' && state.streams.has(event.stream_id)) state.streams.get(event.stream_id).privateChannel = Boolean(event.value);
        break;
      case 'subscription':
        if (event.op === 'add') event.subscriptions.forEach(function (s) { addStream(state, s); });
        break;
      case 'realm_user':
        if (event.op === 'add') addUser(state, event.person);
        else if (event.op === 'remove') state.users.delete(event.person.user_id);
        else if (event.op === 'update' && typeof event.person.full_name === 'string' && state.users.has(event.person.user_id)) state.users.get(event.person.user_id).name = event.person.full_name;
        break;
      case 'presence':
        if (event.presences) Object.keys(event.presences).forEach(function (id) { state.presences.set(Number(id), event.presences[id]); });
        break;
      case 'realm':
        if (event.op === 'update' && event.property === 'name') state.realm = event.value;
        else if (event.op === 'update_dict' && event.data && typeof event.data.name === 'string') state.realm = event.data.name;
        el('realm-name').textContent = state.realm;
        break;
    }
  }

  // ---------------------------------------------------------------- drawing

  function viewKey(v) { return v.kind + ':' + (v.streamId || '') + ':' + (v.topic === undefined ? '' : v.topic); }

  function inView(m) {
    if (view.kind === 'dm') return m.type === 'private';
    if (view.kind === 'stream') return m.type === 'stream' && m.streamId === view.streamId;
    if (view.kind === 'topic') return m.type === 'stream' && m.streamId === view.streamId && m.topic === view.topic;
    return true;
  }

  function topicName(topic) { return topic === '' ? state.emptyTopicName : topic; }

  function streamName(m) {
    var s = state.streams.get(m.streamId);
    return s ? s.name : m.streamName || 'channel ' + m.streamId;
  }

  function viewTitle() {
    if (view.kind === 'dm') return 'Direct messages';
    if (view.kind === 'stream') return '#' + ((state.streams.get(view.streamId) || {}).name || view.streamId);
    if (view.kind === 'topic') return '#' + ((state.streams.get(view.streamId) || {}).name || view.streamId) + ' › ' + topicName(view.topic);
    return 'All messages';
  }

  function viewButton(label, count, target) {
    var item = make('li');
    var button = make('button', '', label + ' ');
    button.type = 'button';
    button.dataset.key = viewKey(target);
    button.setAttribute('aria-current', String(viewKey(target) === viewKey(view)));
    button.appendChild(make('span', 'count', '(' + count + ')'));
    button.addEventListener('click', function () {
      view = target;
      draw();
      el('messages-title').focus();
    });
    item.appendChild(button);
    return item;
  }

  function drawViews(all) {
    var list = el('views');
    var focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    var perStream = new Map();
    var dms = 0;
    all.forEach(function (m) {
      if (m.type === 'private') { dms++; return; }
      var entry = perStream.get(m.streamId) || { count: 0, topics: new Map() };
      entry.count++;
      var topic = entry.topics.get(m.topic) || { count: 0, latest: 0 };
      topic.count++;
      topic.latest = Math.max(topic.latest, m.id);
      entry.topics.set(m.topic, topic);
      perStream.set(m.streamId, entry);
    });
    var items = [viewButton('All messages', all.length, { kind: 'all' }), viewButton('Direct messages', dms, { kind: 'dm' })];
    var streams = Array.from(state.streams.values());
    perStream.forEach(function (_entry, id) { if (!state.streams.has(id)) streams.push({ id: id, name: 'channel ' + id }); });
    streams.sort(function (a, b) { return a.name.localeCompare(b.name); });
    streams.forEach(function (s) {
      var entry = perStream.get(s.id) || { count: 0, topics: new Map() };
      var item = viewButton('#' + s.name + (s.privateChannel ? ' (private)' : ''), entry.count, { kind: 'stream', streamId: s.id });
      var topics = Array.from(entry.topics.entries()).sort(function (a, b) { return b[1].latest - a[1].latest; }).slice(0, SHOWN_TOPICS);
      if (topics.length > 0) {
        var sub = make('ul');
        topics.forEach(function (t) { sub.appendChild(viewButton(topicName(t[0]), t[1].count, { kind: 'topic', streamId: s.id, topic: t[0] })); });
        item.appendChild(sub);
      }
      items.push(item);
    });
    list.replaceChildren.apply(list, items);
    if (focused) {
      var again = list.querySelector('button[data-key="' + CSS.escape(focused) + '"]');
      if (again) again.focus();
    }
  }

  function drawMessages(all) {
    el('messages-title').textContent = viewTitle();
    var shown = all.filter(inView).slice(-SHOWN_MESSAGES).reverse();
    var items = shown.map(function (m) {
      var item = make('li');
      item.dataset.id = String(m.id);
      var meta = make('div', 'meta');
      meta.appendChild(make('span', 'sender', m.sender));
      meta.appendChild(make('span', 'where', m.type === 'stream' ? '#' + streamName(m) + ' › ' + topicName(m.topic) : 'Direct message: ' + m.dmWith.join(', ')));
      var time = make('time', '', new Date(m.timestamp * 1000).toLocaleString());
      time.dateTime = new Date(m.timestamp * 1000).toISOString();
      meta.appendChild(time);
      var content = make('div', 'content');
      // Rendered by the simulator's Markdown renderer, which escapes what the sender wrote.
      content.innerHTML = m.content;
      item.appendChild(meta);
      item.appendChild(content);
      return item;
    });
    if (items.length === 0) items = [make('li', 'empty', 'No messages here yet.')];
    var list = el('messages');
    list.replaceChildren.apply(list, items);
  }

  function presenceOf(userId) {
    var p = state.presences.get(userId);
    if (!p) return 'offline';
    var now = nowSeconds();
    if (now - p.active_timestamp < OFFLINE_AFTER_SECONDS) return 'active';
    if (now - p.idle_timestamp < OFFLINE_AFTER_SECONDS) return 'idle';
    return 'offline';
  }

  var PRESENCE_ORDER = { active: 0, idle: 1, offline: 2 };

  function drawUsers() {
    var users = Array.from(state.users.values()).map(function (u) { return { user: u, presence: u.bot ? 'bot' : presenceOf(u.id) }; });
    users.sort(function (a, b) {
      return (a.user.bot - b.user.bot) || ((PRESENCE_ORDER[a.presence] || 0) - (PRESENCE_ORDER[b.presence] || 0)) || a.user.name.localeCompare(b.user.name);
    });
    var list = el('users');
    list.replaceChildren.apply(list, users.map(function (entry) {
      var item = make('li');
      var dot = make('span', 'dot ' + entry.presence);
      dot.setAttribute('aria-hidden', 'true');
      item.appendChild(dot);
      item.appendChild(make('span', 'name', entry.user.name));
      item.appendChild(make('span', 'presence', entry.presence));
      return item;
    }));
  }

  function draw() {
    var all = Array.from(state.messages.values()).sort(function (a, b) { return a.id - b.id; });
    drawViews(all);
    drawMessages(all);
    drawUsers();
  }

  function recordEvent(event) {
    eventCount++;
    var item = make('li');
    var details = make('details');
    var label = event.type + (event.op ? ' ' + event.op : '') + ' · #' + event.id + ' · ' + new Date().toLocaleTimeString();
    details.appendChild(make('summary', '', label));
    details.appendChild(make('pre', '', JSON.stringify(event, null, 2)));
    item.appendChild(details);
    var list = el('events');
    list.insertBefore(item, list.firstChild);
    while (list.children.length > SHOWN_EVENTS) list.removeChild(list.lastChild);
  }

  // ---------------------------------------------------------------- the event loop

  async function registerUntilDone() {
    for (var attempt = 0; ; attempt++) {
      try {
        await register();
        setStatus('Live: ' + eventCount + ' events so far');
        return;
      } catch (error) {
        setStatus('Could not register (' + error.message + '); trying again…', true);
        await sleep(Math.min(30000, 1000 * Math.pow(2, Math.min(attempt, 5))));
      }
    }
  }

  async function pollForever() {
    var failures = 0;
    for (;;) {
      try {
        var data = await call('GET', '/events', { queue_id: state.queueId, last_event_id: String(state.lastEventId) });
        failures = 0;
        setStatus('Live: ' + eventCount + ' events so far');
        var changed = false;
        data.events.forEach(function (event) {
          state.lastEventId = Math.max(state.lastEventId, event.id);
          if (event.type === 'heartbeat') return;
          apply(event);
          recordEvent(event);
          changed = true;
        });
        if (changed) {
          setStatus('Live: ' + eventCount + ' events so far');
          draw();
        }
      } catch (error) {
        if (error.code === 'BAD_EVENT_QUEUE_ID') {
          // The queue expired or the simulator was reset: start over, as Zulip's clients do.
          setStatus('The event queue is gone; registering again…', true);
          await registerUntilDone();
          continue;
        }
        failures++;
        var wait = typeof error.retryAfter === 'number' ? error.retryAfter * 1000 : Math.min(30000, 1000 * Math.pow(2, Math.min(failures, 5)));
        setStatus('Connection problem (' + error.message + '); retrying…', true);
        await sleep(wait);
      }
    }
  }

  async function start() {
    var as = new URLSearchParams(location.search).get('as');
    var response = await fetch('/__simulator/live/watcher' + (as ? '?as=' + encodeURIComponent(as) : ''), { cache: 'no-store' });
    var watcher = await response.json();
    if (!response.ok) {
      setStatus('Cannot watch: ' + watcher.msg, true);
      return;
    }
    auth = basicAuth(watcher.email, watcher.api_key);
    el('watcher').textContent = 'Read-only live view, watching as ' + watcher.full_name + ' (' + watcher.email + ')';
    await registerUntilDone();
    // Presence fades with time, not only with events.
    setInterval(drawUsers, 15000);
    pollForever();
  }

  start().catch(function (error) { setStatus('Stopped: ' + error.message, true); });
})();
`;
