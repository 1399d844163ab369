/**
 * The live page's script: plain browser JavaScript (no framework, no build step), as text. It
 * talks to the chat API as the acting user (the control API hands out that user's key, under its
 * loopback rule) exactly as a client would, and to the control API for the simulator's buttons
 * and the journal's live feed. Names, topics, journal and event JSON go in as text; only message
 * HTML made by the simulator's Markdown renderer (which escapes what users wrote) goes in as
 * HTML, parsed inert in a <template> and tidied (emoji as characters, images kept same-origin)
 * before it reaches the document.
 */
export const LIVE_JS = String.raw`'use strict';
(function () {
  var API = '/api/v1';
  var CONTROL = '/__simulator';
  var SHOWN_MESSAGES = 150;
  var SHOWN_LOG = 60;
  var SHOWN_TOPICS = 8;
  // A few of Zulip's popular emoji (web/src/emoji_picker.ts offers these first), by Zulip name.
  var PICKER = [['thumbs_up', '1f44d'], ['tada', '1f389'], ['heart', '2764'], ['laughter_tears', '1f602'], ['slight_smile', '1f642'], ['eyes', '1f440'], ['rocket', '1f680'], ['thinking', '1f914'], ['check', '2705'], ['octopus', '1f419']];

  var el = function (id) { return document.getElementById(id); };
  var auth = null;
  var me = null;
  var view = { kind: 'all' };
  var state = emptyState();
  var generation = 0;
  var snapshot = null;
  var simClock = { now: null, following: false, at: 0 };
  var typing = new Map();
  var openPicker = null;
  var pollAbort = null;

  function emptyState() {
    return {
      realm: '', emptyTopicName: 'general chat', queueId: null, lastEventId: -1, offlineAfter: 140, typingExpiryMs: 15000,
      streams: new Map(), subscribed: new Set(), users: new Map(), presences: new Map(), messages: new Map(), realmEmoji: new Map()
    };
  }

  function make(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function button(text, label) {
    var b = make('button', '', text);
    b.type = 'button';
    if (label) b.setAttribute('aria-label', label);
    return b;
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

  function say(id, text, problem) {
    var node = el(id);
    node.textContent = text;
    node.classList.toggle('problem', Boolean(problem));
  }

  async function call(method, path, params, signal) {
    var body = new URLSearchParams(params || {});
    var url = API + path + (method === 'GET' ? '?' + body : '');
    var response = await fetch(url, { method: method, headers: { Authorization: auth }, body: method === 'GET' ? undefined : body, cache: 'no-store', signal: signal });
    var data = await response.json().catch(function () { return { result: 'error', msg: 'HTTP ' + response.status }; });
    if (data.result !== 'success') {
      var error = new Error(data.msg || 'HTTP ' + response.status);
      error.code = data.code;
      error.retryAfter = data['retry-after'];
      throw error;
    }
    return data;
  }

  async function control(method, path, body) {
    var response = await fetch(CONTROL + path, {
      method: method, cache: 'no-store',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : (typeof body === 'string' ? body : JSON.stringify(body))
    });
    if (response.status === 204) return null;
    var text = await response.text();
    var data = text ? JSON.parse(text) : null;
    if (!response.ok) throw new Error((data && data.msg) || 'HTTP ' + response.status);
    return data;
  }

  // ---------------------------------------------------------------- the model

  function simNow() {
    if (simClock.now === null) return Date.now() / 1000;
    return simClock.now + (simClock.following ? (Date.now() - simClock.at) / 1000 : 0);
  }

  function setClock(now, following) {
    simClock = { now: now, following: following, at: Date.now() };
    drawClock();
  }

  function addStream(into, s) {
    into.streams.set(s.stream_id, { id: s.stream_id, name: s.name, privateChannel: Boolean(s.invite_only) });
  }

  function addUser(into, u) {
    into.users.set(u.user_id, { id: u.user_id, name: u.full_name, email: u.email, bot: Boolean(u.is_bot), active: u.is_active !== false });
  }

  function addMessage(into, m, flags) {
    var f = flags || m.flags || [];
    into.messages.set(m.id, {
      id: m.id, type: m.type, streamId: m.stream_id, topic: m.subject, content: m.content,
      senderId: m.sender_id, sender: m.sender_full_name, timestamp: m.timestamp, edited: Boolean(m.last_edit_timestamp),
      unread: f.indexOf('read') < 0,
      reactions: (m.reactions || []).map(function (r) { return { name: r.emoji_name, code: r.emoji_code, type: r.reaction_type, userId: r.user_id }; }),
      dmIds: m.type === 'private' ? m.display_recipient.map(function (r) { return r.id; }) : null,
      dmWith: m.type === 'private' ? m.display_recipient.map(function (r) { return r.full_name; }) : null,
      streamName: m.type === 'stream' ? m.display_recipient : null
    });
  }

  async function register() {
    var data = await call('POST', '/register', {
      apply_markdown: 'true', client_gravatar: 'true', slim_presence: 'true',
      client_capabilities: JSON.stringify({ notification_settings_null: true, simplified_presence_events: true, user_avatar_url_field_optional: true, stream_typing_notifications: true }),
      fetch_event_types: JSON.stringify(['realm', 'realm_user', 'presence', 'stream', 'subscription', 'realm_emoji'])
    });
    var next = emptyState();
    next.realm = data.realm_name || '';
    next.emptyTopicName = data.realm_empty_topic_display_name || next.emptyTopicName;
    next.offlineAfter = data.server_presence_offline_threshold_seconds || next.offlineAfter;
    next.typingExpiryMs = data.server_typing_started_expiry_period_milliseconds || next.typingExpiryMs;
    next.queueId = data.queue_id;
    next.lastEventId = data.last_event_id;
    (data.streams || []).forEach(function (s) { addStream(next, s); });
    (data.subscriptions || []).forEach(function (s) { addStream(next, s); next.subscribed.add(s.stream_id); });
    (data.realm_users || []).forEach(function (u) { addUser(next, u); });
    Object.keys(data.realm_emoji || {}).forEach(function (id) { var e = data.realm_emoji[id]; next.realmEmoji.set(String(e.id), e); });
    Object.keys(data.presences || {}).forEach(function (id) { next.presences.set(Number(id), data.presences[id]); });
    if (simClock.now === null || !simClock.following) setClock(data.server_timestamp, simClock.following);
    // What this user's client shows: their own messages (subscribed channels and direct messages).
    var page = await call('GET', '/messages', { anchor: 'newest', num_before: String(SHOWN_MESSAGES), num_after: '0', apply_markdown: 'true', client_gravatar: 'true', narrow: '[]' });
    page.messages.forEach(function (m) { addMessage(next, m); });
    state = next;
    typing.clear();
    document.title = (state.realm ? state.realm + ' · ' : '') + 'Chat simulator · live';
    el('realm-name').textContent = state.realm || 'Chat simulator';
    if (view.kind === 'stream' || view.kind === 'topic') { if (!state.streams.has(view.streamId)) view = { kind: 'all' }; }
    drawActAs();
    draw();
  }

  function reactionEvent(event) {
    var m = state.messages.get(event.message_id);
    if (!m) return;
    var same = function (r) { return r.userId === event.user_id && r.code === event.emoji_code && r.type === event.reaction_type; };
    m.reactions = m.reactions.filter(function (r) { return !same(r); });
    if (event.op === 'add') m.reactions.push({ name: event.emoji_name, code: event.emoji_code, type: event.reaction_type, userId: event.user_id });
  }

  function typingKey(event) {
    return event.sender.user_id + ':' + (event.message_type === 'stream' ? 's:' + event.stream_id + ':' + event.topic : 'd');
  }

  function typingEvent(event) {
    var key = typingKey(event);
    var old = typing.get(key);
    if (old) clearTimeout(old.timer);
    typing.delete(key);
    if (event.op === 'start') {
      var entry = { senderId: event.sender.user_id, kind: event.message_type, streamId: event.stream_id, topic: event.topic, timer: 0 };
      entry.timer = setTimeout(function () { typing.delete(key); drawTyping(); }, state.typingExpiryMs);
      typing.set(key, entry);
    }
    drawTyping();
  }

  function apply(event) {
    var ids;
    switch (event.type) {
      case 'message':
        addMessage(state, event.message, event.flags);
        break;
      case 'update_message':
        ids = event.message_ids || [event.message_id];
        ids.forEach(function (id) {
          var m = state.messages.get(id);
          if (!m) return;
          if (id === event.message_id && typeof event.rendered_content === 'string') { m.content = event.rendered_content; m.edited = true; }
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
      case 'reaction':
        reactionEvent(event);
        break;
      case 'typing':
        typingEvent(event);
        return false;
      case 'update_message_flags':
        if (event.flag === 'read') (event.all ? Array.from(state.messages.keys()) : event.messages).forEach(function (id) {
          var m = state.messages.get(id);
          if (m) m.unread = event.op === 'remove';
        });
        break;
      case 'stream':
        if (event.op === 'create') event.streams.forEach(function (s) { addStream(state, s); });
        else if (event.op === 'delete') event.streams.forEach(function (s) { state.streams.delete(s.stream_id); state.subscribed.delete(s.stream_id); });
        else if (event.op === 'update' && event.property === 'name' && state.streams.has(event.stream_id)) state.streams.get(event.stream_id).name = event.value;
        else if (event.op === 'update' && event.property === 'invite_only' && state.streams.has(event.stream_id)) state.streams.get(event.stream_id).privateChannel = Boolean(event.value);
        break;
      case 'subscription':
        if (event.op === 'add') event.subscriptions.forEach(function (s) { addStream(state, s); state.subscribed.add(s.stream_id); });
        else if (event.op === 'remove') event.subscriptions.forEach(function (s) { state.subscribed.delete(s.stream_id); });
        break;
      case 'realm_user':
        if (event.op === 'add') addUser(state, event.person);
        else if (event.op === 'remove' && state.users.has(event.person.user_id)) state.users.get(event.person.user_id).active = false;
        else if (event.op === 'update' && typeof event.person.full_name === 'string' && state.users.has(event.person.user_id)) state.users.get(event.person.user_id).name = event.person.full_name;
        drawActAs();
        break;
      case 'realm_emoji':
        if (event.op === 'update') { state.realmEmoji = new Map(); Object.keys(event.realm_emoji).forEach(function (id) { state.realmEmoji.set(String(id), event.realm_emoji[id]); }); }
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
    return true;
  }

  // ---------------------------------------------------------------- message HTML

  function emojiChar(code) {
    try {
      return code.split('-').map(function (hex) { return String.fromCodePoint(parseInt(hex, 16)); }).join('');
    } catch (error) {
      return null;
    }
  }

  function realmEmojiUrl(name) { return CONTROL + '/live/realm-emoji/' + encodeURIComponent(name) + '.svg'; }

  function sameOrigin(src) {
    try { return new URL(src, location.href).origin === location.origin; } catch (error) { return false; }
  }

  // Zulip's markup, as its web app shows it: emoji spans become characters (the web app draws
  // sprites), realm emoji images and other pictures load from this origin only (the page's
  // Content-Security-Policy refuses others, which would be console errors), spoilers fold.
  function renderContent(html) {
    var template = document.createElement('template');
    template.innerHTML = html;
    var root = template.content;
    root.querySelectorAll('span.emoji').forEach(function (span) {
      var match = /(?:^|\s)emoji-([0-9a-f-]+)(?:\s|$)/.exec(span.className);
      var ch = match && emojiChar(match[1]);
      if (ch) span.textContent = ch;
    });
    root.querySelectorAll('img').forEach(function (img) {
      var src = img.getAttribute('src') || '';
      if (img.classList.contains('emoji') && /^\/user_avatars\//.test(src)) {
        img.setAttribute('src', realmEmojiUrl((img.getAttribute('alt') || '').replace(/:/g, '')));
      } else if (!sameOrigin(src) || /^\/user_(avatars|uploads)\//.test(src)) {
        img.replaceWith(document.createTextNode(img.getAttribute('alt') || '[image]'));
      }
    });
    root.querySelectorAll('.message_inline_image, .message_embed').forEach(function (node) { node.remove(); });
    root.querySelectorAll('a[href]').forEach(function (a) {
      if (!sameOrigin(a.getAttribute('href'))) { a.target = '_blank'; a.rel = 'noopener noreferrer'; }
    });
    root.querySelectorAll('.user-mention, .user-group-mention').forEach(function (span) {
      if (me && (span.getAttribute('data-user-id') === String(me.user_id) || span.getAttribute('data-user-id') === '*')) span.classList.add('me');
    });
    root.querySelectorAll('.spoiler-block').forEach(function (block) {
      var header = block.querySelector('.spoiler-header');
      var content = block.querySelector('.spoiler-content');
      if (!header || !content) return;
      content.hidden = true;
      var toggle = button('Show', 'Show spoiler');
      toggle.className = 'spoiler-toggle';
      toggle.setAttribute('aria-expanded', 'false');
      toggle.addEventListener('click', function () {
        var open = content.hidden;
        content.hidden = !open;
        content.setAttribute('aria-hidden', String(!open));
        toggle.setAttribute('aria-expanded', String(open));
        toggle.textContent = open ? 'Hide' : 'Show';
        toggle.setAttribute('aria-label', open ? 'Hide spoiler' : 'Show spoiler');
      });
      header.insertBefore(toggle, header.firstChild);
    });
    return root;
  }

  // ---------------------------------------------------------------- drawing

  function viewKey(v) { return v.kind + ':' + (v.streamId || '') + ':' + (v.topic === undefined ? '' : v.topic) + ':' + (v.dm || ''); }

  function dmKey(m) { return m.dmIds.slice().sort(function (a, b) { return a - b; }).join(','); }

  function inView(m, v) {
    v = v || view;
    if (v.kind === 'dms') return m.type === 'private';
    if (v.kind === 'dm') return m.type === 'private' && dmKey(m) === v.dm;
    if (v.kind === 'stream') return m.type === 'stream' && m.streamId === v.streamId;
    if (v.kind === 'topic') return m.type === 'stream' && m.streamId === v.streamId && m.topic === v.topic;
    return true;
  }

  function topicName(topic) { return topic === '' ? state.emptyTopicName : topic; }

  function streamName(id, fallback) {
    var s = state.streams.get(id);
    return s ? s.name : fallback || 'channel ' + id;
  }

  function userName(id) {
    var u = state.users.get(id);
    return u ? u.name : 'user ' + id;
  }

  function dmLabel(key) {
    var ids = key.split(',').map(Number).filter(function (id) { return !me || id !== me.user_id; });
    return ids.length === 0 ? userName(me.user_id) + ' (you)' : ids.map(userName).join(', ');
  }

  function viewTitle() {
    if (view.kind === 'dms') return 'Direct messages';
    if (view.kind === 'dm') return 'Direct messages with ' + dmLabel(view.dm);
    if (view.kind === 'stream') return '#' + streamName(view.streamId);
    if (view.kind === 'topic') return '#' + streamName(view.streamId) + ' › ' + topicName(view.topic);
    return 'All messages';
  }

  function choose(target) {
    view = target;
    closeChannelsOnPhone();
    draw();
    el('messages-title').focus();
  }

  function viewButton(label, unread, target) {
    var item = make('li');
    var b = button('');
    b.dataset.key = viewKey(target);
    b.setAttribute('aria-current', String(viewKey(target) === viewKey(view)));
    b.appendChild(make('span', 'label', label));
    if (unread > 0) {
      var count = make('span', 'unread', String(unread));
      b.appendChild(count);
      b.setAttribute('aria-label', label + ', ' + unread + ' unread');
    }
    b.addEventListener('click', function () { choose(target); });
    item.appendChild(b);
    return item;
  }

  function drawViews(all) {
    var list = el('views');
    var focused = document.activeElement && list.contains(document.activeElement) ? document.activeElement.dataset.key : null;
    var perStream = new Map();
    var dms = new Map();
    var unreadAll = 0, unreadDms = 0;
    all.forEach(function (m) {
      if (m.unread) unreadAll++;
      if (m.type === 'private') {
        var key = dmKey(m);
        var d = dms.get(key) || { unread: 0, latest: 0 };
        if (m.unread) { d.unread++; unreadDms++; }
        d.latest = Math.max(d.latest, m.id);
        dms.set(key, d);
        return;
      }
      var entry = perStream.get(m.streamId) || { unread: 0, topics: new Map() };
      var topic = entry.topics.get(m.topic) || { unread: 0, latest: 0 };
      if (m.unread) { entry.unread++; topic.unread++; }
      topic.latest = Math.max(topic.latest, m.id);
      entry.topics.set(m.topic, topic);
      perStream.set(m.streamId, entry);
    });
    var items = [viewButton('All messages', unreadAll, { kind: 'all' }), viewButton('Direct messages', unreadDms, { kind: 'dms' })];
    Array.from(dms.entries()).sort(function (a, b) { return b[1].latest - a[1].latest; }).slice(0, SHOWN_TOPICS).forEach(function (d) {
      var item = viewButton(dmLabel(d[0]), d[1].unread, { kind: 'dm', dm: d[0] });
      item.classList.add('dm');
      items.push(item);
    });
    items.push(make('li', 'heading', 'Channels'));
    var streams = Array.from(state.subscribed).map(function (id) { return state.streams.get(id) || { id: id, name: 'channel ' + id }; });
    streams.sort(function (a, b) { return a.name.localeCompare(b.name); });
    streams.forEach(function (s) {
      var entry = perStream.get(s.id) || { unread: 0, topics: new Map() };
      var item = viewButton('#' + s.name + (s.privateChannel ? ' (private)' : ''), entry.unread, { kind: 'stream', streamId: s.id });
      var topics = Array.from(entry.topics.entries()).sort(function (a, b) { return b[1].latest - a[1].latest; }).slice(0, SHOWN_TOPICS);
      if (topics.length > 0) {
        var sub = make('ul');
        topics.forEach(function (t) { sub.appendChild(viewButton(topicName(t[0]), t[1].unread, { kind: 'topic', streamId: s.id, topic: t[0] })); });
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

  function reactionGroups(m) {
    var groups = new Map();
    m.reactions.forEach(function (r) {
      var key = r.type + ':' + r.code;
      var g = groups.get(key) || { name: r.name, code: r.code, type: r.type, users: [] };
      g.users.push(r.userId);
      groups.set(key, g);
    });
    return Array.from(groups.values());
  }

  function emojiNode(name, code, type) {
    if (type === 'realm_emoji') {
      var img = make('img');
      img.src = realmEmojiUrl(name);
      img.alt = ':' + name + ':';
      return img;
    }
    var ch = type === 'unicode_emoji' ? emojiChar(code) : null;
    return make('span', 'emoji', ch || ':' + name + ':');
  }

  async function react(m, name, code, type, remove) {
    var params = { emoji_name: name };
    if (code) { params.emoji_code = code; params.reaction_type = type; }
    try {
      await call(remove ? 'DELETE' : 'POST', '/messages/' + m.id + '/reactions', params);
    } catch (error) {
      say('compose-result', 'Reaction not ' + (remove ? 'removed' : 'added') + ': ' + error.message, true);
    }
  }

  function drawReactions(m, item) {
    var row = make('div', 'reactions');
    reactionGroups(m).forEach(function (g) {
      var mine = me && g.users.indexOf(me.user_id) >= 0;
      var names = g.users.map(userName).join(', ');
      var b = button('');
      b.className = 'reaction';
      b.setAttribute('aria-pressed', String(Boolean(mine)));
      b.setAttribute('aria-label', g.name + ': ' + g.users.length + ' (' + names + ')' + (mine ? ', yours: press to remove' : ''));
      var emoji = emojiNode(g.name, g.code, g.type);
      emoji.setAttribute('aria-hidden', 'true');
      b.appendChild(emoji);
      b.appendChild(make('span', 'count', String(g.users.length)));
      var who = make('span', 'who', names + ' reacted with :' + g.name + ':');
      who.setAttribute('aria-hidden', 'true');
      b.appendChild(who);
      b.addEventListener('click', function () { react(m, g.name, g.code, g.type, mine); });
      row.appendChild(b);
    });
    var add = button('☺ +', 'Add reaction');
    add.className = 'add-reaction';
    add.setAttribute('aria-expanded', 'false');
    var picker = make('div', 'picker');
    picker.setAttribute('role', 'group');
    picker.setAttribute('aria-label', 'Pick a reaction');
    picker.hidden = true;
    var choices = PICKER.map(function (p) { return { name: p[0], code: p[1], type: 'unicode_emoji' }; });
    state.realmEmoji.forEach(function (e) { if (!e.deactivated) choices.push({ name: e.name, code: String(e.id), type: 'realm_emoji' }); });
    choices.forEach(function (c) {
      var pick = button('', c.name.replace(/_/g, ' '));
      pick.appendChild(emojiNode(c.name, c.code, c.type));
      pick.title = ':' + c.name + ':';
      pick.addEventListener('click', function () { closePicker(); react(m, c.name, c.code, c.type, false); });
      picker.appendChild(pick);
    });
    picker.addEventListener('keydown', function (e) { if (e.key === 'Escape') { closePicker(); add.focus(); } });
    add.addEventListener('click', function () {
      var opening = picker.hidden;
      closePicker();
      if (opening) {
        picker.hidden = false;
        add.setAttribute('aria-expanded', 'true');
        openPicker = { messageId: m.id, picker: picker, add: add };
        picker.querySelector('button').focus();
      }
    });
    row.appendChild(add);
    item.appendChild(row);
    item.appendChild(picker);
  }

  function closePicker() {
    if (!openPicker) return;
    openPicker.picker.hidden = true;
    openPicker.add.setAttribute('aria-expanded', 'false');
    openPicker = null;
  }

  function drawMessages(all) {
    el('messages-title').textContent = viewTitle();
    var list = el('messages');
    var focusedId = null, focusedLabel = null;
    if (document.activeElement && list.contains(document.activeElement)) {
      var holder = document.activeElement.closest('li[data-id]');
      focusedId = holder && holder.dataset.id;
      focusedLabel = document.activeElement.getAttribute('aria-label');
    }
    var pickerFor = openPicker && openPicker.messageId;
    openPicker = null;
    var shown = all.filter(function (m) { return inView(m); }).slice(-SHOWN_MESSAGES).reverse();
    var items = shown.map(function (m) {
      var item = make('li', 'message');
      item.dataset.id = String(m.id);
      var meta = make('div', 'meta');
      meta.appendChild(make('span', 'sender', m.sender));
      meta.appendChild(make('span', 'where', m.type === 'stream' ? '#' + streamName(m.streamId, m.streamName) + ' › ' + topicName(m.topic) : 'Direct message: ' + m.dmWith.join(', ')));
      var time = make('time', '', new Date(m.timestamp * 1000).toLocaleString());
      time.dateTime = new Date(m.timestamp * 1000).toISOString();
      meta.appendChild(time);
      if (m.edited) meta.appendChild(make('span', 'edited', '(edited)'));
      if (m.unread) meta.appendChild(make('span', 'unread-mark', 'unread'));
      var content = make('div', 'content');
      content.appendChild(renderContent(m.content));
      item.appendChild(meta);
      item.appendChild(content);
      drawReactions(m, item);
      return item;
    });
    if (items.length === 0) items = [make('li', 'empty', 'No messages here yet.')];
    list.replaceChildren.apply(list, items);
    if (pickerFor) {
      var again = list.querySelector('li[data-id="' + pickerFor + '"] .add-reaction');
      if (again) again.click();
    }
    if (focusedId && focusedLabel) {
      var back = list.querySelector('li[data-id="' + focusedId + '"] [aria-label="' + CSS.escape(focusedLabel) + '"]');
      if (back) back.focus();
    }
  }

  function presenceOf(userId) {
    var p = state.presences.get(userId);
    if (!p) return 'offline';
    var now = simNow();
    if (now - p.active_timestamp < state.offlineAfter) return 'active';
    if (now - p.idle_timestamp < state.offlineAfter) return 'idle';
    return 'offline';
  }

  var PRESENCE_ORDER = { active: 0, idle: 1, offline: 2 };

  function drawUsers() {
    var users = Array.from(state.users.values()).filter(function (u) { return u.active; }).map(function (u) { return { user: u, presence: u.bot ? 'bot' : presenceOf(u.id) }; });
    users.sort(function (a, b) {
      return (a.user.bot - b.user.bot) || ((PRESENCE_ORDER[a.presence] || 0) - (PRESENCE_ORDER[b.presence] || 0)) || a.user.name.localeCompare(b.user.name);
    });
    var list = el('users');
    list.replaceChildren.apply(list, users.map(function (entry) {
      var item = make('li');
      var dot = make('span', 'dot ' + entry.presence);
      dot.setAttribute('aria-hidden', 'true');
      item.appendChild(dot);
      item.appendChild(make('span', 'name', entry.user.name + (me && entry.user.id === me.user_id ? ' (you)' : '')));
      item.appendChild(make('span', 'presence', entry.presence));
      return item;
    }));
  }

  function drawTyping() {
    var names = [];
    typing.forEach(function (t) {
      if (me && t.senderId === me.user_id) return;
      var here = view.kind === 'all' ||
        (t.kind === 'stream' && (view.kind === 'stream' || view.kind === 'topic') && t.streamId === view.streamId && (view.kind === 'stream' || t.topic === view.topic)) ||
        (t.kind === 'direct' && (view.kind === 'dms' || view.kind === 'dm'));
      if (here) names.push(userName(t.senderId));
    });
    el('typing').textContent = names.length === 0 ? '' : names.join(', ') + (names.length === 1 ? ' is typing…' : ' are typing…');
  }

  function drawCompose() {
    var channelField = el('channel-field'), topicField = el('topic-field'), to = el('compose-to');
    var needsChannel = view.kind === 'all' || view.kind === 'dms';
    channelField.hidden = !needsChannel;
    topicField.hidden = !(needsChannel || view.kind === 'stream');
    if (view.kind === 'dm') to.textContent = 'To: ' + dmLabel(view.dm);
    else if (view.kind === 'topic') to.textContent = 'To: #' + streamName(view.streamId) + ' › ' + topicName(view.topic);
    else if (view.kind === 'stream') to.textContent = 'To: #' + streamName(view.streamId);
    else to.textContent = '';
    to.hidden = to.textContent === '';
    var select = el('compose-channel');
    var chosen = select.value;
    var names = Array.from(state.subscribed).map(function (id) { return state.streams.get(id); }).filter(Boolean).sort(function (a, b) { return a.name.localeCompare(b.name); });
    select.replaceChildren.apply(select, names.map(function (s) { var o = make('option', '', '#' + s.name); o.value = String(s.id); return o; }));
    if (chosen && names.some(function (s) { return String(s.id) === chosen; })) select.value = chosen;
  }

  function drawActAs() {
    var select = el('act-as');
    var users = Array.from(state.users.values()).filter(function (u) { return u.active; }).sort(function (a, b) { return (a.bot - b.bot) || a.name.localeCompare(b.name); });
    select.replaceChildren.apply(select, users.map(function (u) {
      var o = make('option', '', u.name + (u.bot ? ' (bot)' : ''));
      o.value = String(u.id);
      return o;
    }));
    if (me) select.value = String(me.user_id);
    select.disabled = false;
  }

  function drawClock() {
    var node = el('sim-time');
    if (simClock.now === null) return;
    var d = new Date(simNow() * 1000);
    node.dateTime = d.toISOString();
    node.textContent = d.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC') + (simClock.following ? '' : ' (stopped)');
  }

  function draw() {
    var all = Array.from(state.messages.values()).sort(function (a, b) { return a.id - b.id; });
    drawViews(all);
    drawMessages(all);
    drawCompose();
    drawTyping();
    drawUsers();
  }

  function logItem(summaryText, sections, bad) {
    var item = make('li');
    var details = make('details');
    var summary = make('summary', bad ? 'bad' : '', summaryText);
    details.appendChild(summary);
    details.addEventListener('toggle', function () {
      if (!details.open || details.dataset.filled) return;
      details.dataset.filled = '1';
      sections().forEach(function (s) {
        details.appendChild(make('h3', '', s[0]));
        details.appendChild(make('pre', '', s[1]));
      });
    });
    item.appendChild(details);
    return item;
  }

  function prepend(list, item) {
    list.insertBefore(item, list.firstChild);
    while (list.children.length > SHOWN_LOG) list.removeChild(list.lastChild);
  }

  function recordEvent(event) {
    var label = event.type + (event.op ? ' ' + event.op : '') + ' · #' + event.id + ' · ' + new Date().toLocaleTimeString();
    prepend(el('events'), logItem(label, function () { return [['Event', JSON.stringify(event, null, 2)]]; }));
  }

  function pretty(body) {
    if (!body) return '(none)';
    if (body.body_dropped) return '(dropped from the journal for its byte budget)';
    if (body.body_encoding === 'base64') return '(' + body.body.length + ' bytes of base64)';
    var text = body.body;
    var type = (body.headers && body.headers['content-type']) || '';
    try {
      if (/json/.test(type) || /^\s*[{[]/.test(text)) return JSON.stringify(JSON.parse(text), null, 2);
      if (/x-www-form-urlencoded/.test(type)) {
        var out = {};
        new URLSearchParams(text).forEach(function (v, k) { out[k] = v; });
        return JSON.stringify(out, null, 2);
      }
    } catch (error) { /* shown as sent */ }
    return text === '' ? '(empty)' : text;
  }

  function params(entry) {
    var query = {};
    var at = entry.url.indexOf('?');
    if (at >= 0) new URLSearchParams(entry.url.slice(at + 1)).forEach(function (v, k) { query[k] = v; });
    var sent = pretty(entry.request);
    return (Object.keys(query).length ? 'Query: ' + JSON.stringify(query, null, 2) + '\n' : '') + (sent === '(empty)' ? (at >= 0 ? '' : '(none)') : 'Body: ' + sent);
  }

  function recordJournal(entry, completedAt) {
    var status = entry.response ? entry.response.status : entry.outcome;
    var caller = entry.user_id !== null ? userName(entry.user_id) : 'anonymous';
    var path = entry.url.split('?')[0];
    var when = new Date(completedAt).toLocaleTimeString();
    var label = entry.method + ' ' + path + ' · ' + caller + ' · ' + status + ' · ' + when + (entry.fault_id !== null ? ' · fault ' + entry.fault_id : '');
    var bad = typeof status !== 'number' || status >= 400;
    prepend(el('journal'), logItem(label, function () {
      return [['Parameters', params(entry)], ['Response', entry.response ? entry.response.status + '\n' + pretty(entry.response) : 'No response (' + entry.outcome + ')']];
    }, bad));
  }

  // ---------------------------------------------------------------- acting and composing

  async function fetchWatcher(as) {
    var response = await fetch(CONTROL + '/live/watcher' + (as ? '?as=' + encodeURIComponent(as) : ''), { cache: 'no-store' });
    var watcher = await response.json();
    if (!response.ok) throw new Error(watcher.msg || 'HTTP ' + response.status);
    return watcher;
  }

  // Reset, restore or any other change through the control API: the queue may be gone or, from a
  // snapshot, back at an older point; registering again shows the state as it now is.
  async function resync() {
    if (!me) return;
    var keep = view;
    await actAs(String(me.user_id), true);
    view = keep;
    draw();
  }

  async function actAs(as, keepEvents) {
    var watcher = await fetchWatcher(as);
    var previous = auth && state.queueId && !keepEvents ? { auth: auth, queue: state.queueId } : null;
    me = watcher;
    auth = basicAuth(watcher.email, watcher.api_key);
    generation++;
    // The old queue's parked poll would hold one of the browser's few connections to this host.
    if (pollAbort) pollAbort.abort();
    pollAbort = new AbortController();
    if (previous) {
      // The old queue is of no more use: delete it, as a client logging out does.
      fetch(API + '/events?' + new URLSearchParams({ queue_id: previous.queue }), { method: 'DELETE', headers: { Authorization: previous.auth } }).catch(function () {});
    }
    view = { kind: 'all' };
    if (!keepEvents) el('events').replaceChildren();
    await registerUntilDone();
    pollForever(generation);
  }

  function composeTarget() {
    var topic = el('compose-topic').value;
    if (view.kind === 'dm') return { type: 'direct', to: JSON.stringify(view.dm.split(',').map(Number)) };
    if (view.kind === 'topic') return { type: 'stream', to: String(view.streamId), topic: view.topic };
    if (view.kind === 'stream') return { type: 'stream', to: String(view.streamId), topic: topic };
    return { type: 'stream', to: el('compose-channel').value, topic: topic };
  }

  async function send(event) {
    event.preventDefault();
    var content = el('compose-content');
    if (content.value.trim() === '') { say('compose-result', 'Write a message first.', true); content.focus(); return; }
    var target = composeTarget();
    target.content = content.value;
    el('send').disabled = true;
    try {
      var sent = await call('POST', '/messages', target);
      content.value = '';
      say('compose-result', 'Sent (message ' + sent.id + ').');
    } catch (error) {
      say('compose-result', 'Not sent: ' + error.message, true);
    } finally {
      el('send').disabled = false;
    }
  }

  // ---------------------------------------------------------------- the simulator's controls

  async function act(label, work) {
    try {
      var said = await work();
      say('control-result', said || label + ': done.');
    } catch (error) {
      say('control-result', label + ' failed: ' + error.message, true);
    }
  }

  var FAULTS = {
    rate: { error: { code: 'RATE_LIMIT_HIT', extra: { 'retry-after': 2 }, headers: { 'Retry-After': '2' } } },
    error: { error: { code: 'BAD_REQUEST', status: 500, msg: 'Internal server error (injected)' } },
    slow: { latency_ms: 3000 },
    drop: { drop: true }
  };

  function faultText(f) {
    var s = f.spec;
    var what = s.drop ? 'dropped connection' : s.error ? s.error.code + (s.error.status ? ' ' + s.error.status : '') : 'slow ' + s.latency_ms + ' ms';
    return 'Fault ' + f.id + ': ' + (s.route || 'every route') + ', ' + what + ' (' + f.hits + ' caught)';
  }

  async function refreshControls() {
    var faults = await control('GET', '/faults');
    var list = el('faults');
    list.replaceChildren.apply(list, faults.faults.map(function (f) {
      var item = make('li');
      item.appendChild(make('span', '', faultText(f)));
      var remove = button('Remove', 'Remove fault ' + f.id);
      remove.addEventListener('click', function () { act('Remove fault', async function () { await control('DELETE', '/faults/' + f.id); await refreshControls(); return 'Fault ' + f.id + ' removed.'; }); });
      item.appendChild(remove);
      return item;
    }));
    var limits = await control('GET', '/rate-limit');
    el('rate-limits').checked = limits.enabled;
  }

  function wireControls() {
    el('reset').addEventListener('click', function () {
      act('Reset', async function () { await control('POST', '/reset'); snapshot = null; el('restore').disabled = true; await refreshControls(); return 'Reset to the fixture.'; });
    });
    el('snapshot').addEventListener('click', function () {
      act('Snapshot', async function () {
        var response = await fetch(CONTROL + '/snapshot', { cache: 'no-store' });
        if (!response.ok) throw new Error('HTTP ' + response.status);
        snapshot = await response.text();
        el('restore').disabled = false;
        return 'Snapshot taken (' + Math.round(snapshot.length / 1024) + ' KiB).';
      });
    });
    el('restore').addEventListener('click', function () {
      if (!snapshot) return;
      act('Restore', async function () { await control('PUT', '/snapshot', snapshot); return 'Snapshot restored.'; });
    });
    el('advance').addEventListener('click', function () {
      var seconds = Number(el('advance-seconds').value);
      act('Advance clock', async function () {
        if (!(seconds > 0)) throw new Error('give a number of seconds above 0');
        var report = await control('POST', '/clock/advance', { seconds: seconds });
        setClock(report.to, simClock.following);
        drawUsers();
        return 'Clock advanced ' + seconds + ' s.';
      });
    });
    el('rate-limits').addEventListener('change', function (e) {
      var on = e.target.checked;
      act('Rate limits', async function () { await control('PUT', '/rate-limit', { enabled: on }); return on ? "Zulip's rate limits apply." : 'Rate limits off.'; });
    });
    el('add-fault').addEventListener('click', function () {
      var spec = Object.assign({}, FAULTS[el('fault-kind').value]);
      var route = el('fault-route').value;
      if (route) spec.route = route;
      act('Add fault', async function () { var f = await control('POST', '/faults', spec); await refreshControls(); return 'Fault ' + f.id + ' added.'; });
    });
    el('act-as').addEventListener('change', function (e) {
      var id = e.target.value;
      var url = new URL(location.href);
      url.searchParams.set('as', id);
      history.replaceState(null, '', url);
      actAs(id).catch(function (error) { setStatus('Cannot act as ' + id + ': ' + error.message, true); });
    });
    el('compose').addEventListener('submit', send);
    el('compose-content').addEventListener('keydown', function (e) {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) send(e);
    });
    var toggle = el('channels-toggle');
    var nav = el('channels');
    var phone = window.matchMedia('(max-width: 59.99em)');
    var fit = function () { nav.hidden = phone.matches && toggle.getAttribute('aria-expanded') !== 'true'; };
    toggle.addEventListener('click', function () {
      toggle.setAttribute('aria-expanded', String(toggle.getAttribute('aria-expanded') !== 'true'));
      fit();
      if (!nav.hidden) { var first = nav.querySelector('button'); if (first) first.focus(); }
    });
    phone.addEventListener('change', fit);
    fit();
    closeChannelsOnPhone = function () {
      if (!phone.matches) return;
      toggle.setAttribute('aria-expanded', 'false');
      fit();
    };
    setInterval(function () { drawClock(); }, 1000);
    // Presence fades with time, not only with events.
    setInterval(drawUsers, 5000);
  }

  var closeChannelsOnPhone = function () {};

  // ---------------------------------------------------------------- the loops

  async function registerUntilDone() {
    for (var attempt = 0; ; attempt++) {
      try {
        await register();
        setStatus('Live as ' + me.full_name);
        return;
      } catch (error) {
        setStatus('Could not register (' + error.message + '); trying again…', true);
        await sleep(Math.min(30000, 1000 * Math.pow(2, Math.min(attempt, 5))));
      }
    }
  }

  async function pollForever(mine) {
    var failures = 0;
    var signal = pollAbort.signal;
    while (mine === generation) {
      try {
        var data = await call('GET', '/events', { queue_id: state.queueId, last_event_id: String(state.lastEventId) }, signal);
        if (mine !== generation) return;
        failures = 0;
        setStatus('Live as ' + me.full_name);
        var changed = false;
        data.events.forEach(function (event) {
          state.lastEventId = Math.max(state.lastEventId, event.id);
          if (event.type === 'heartbeat') return;
          if (apply(event)) changed = true;
          recordEvent(event);
        });
        if (changed) draw();
      } catch (error) {
        if (mine !== generation) return;
        if (error.code === 'BAD_EVENT_QUEUE_ID') {
          // The queue expired or the simulator was reset or restored: start over, as Zulip's clients do.
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

  // The journal's live feed: a long-poll on the control API, answered as requests complete.
  async function followJournal() {
    var cursor = null, changes = null, failures = 0;
    for (;;) {
      try {
        var query = cursor === null ? '?wait_ms=0&limit=' + SHOWN_LOG : '?cursor=' + cursor + '&wait_ms=25000';
        var response = await fetch(CONTROL + '/journal/feed' + query, { cache: 'no-store' });
        if (!response.ok) throw new Error('HTTP ' + response.status);
        var feed = await response.json();
        failures = 0;
        cursor = feed.cursor;
        feed.entries.forEach(function (entry, i) { recordJournal(entry, feed.completed_at[i]); });
        setClock(feed.clock.now, feed.clock.following_real_time);
        if (changes !== null && feed.control_changes !== changes) {
          refreshControls().catch(function () {});
          resync().catch(function (error) { setStatus('Could not register again: ' + error.message, true); });
        }
        changes = feed.control_changes;
      } catch (error) {
        failures++;
        await sleep(Math.min(30000, 1000 * Math.pow(2, Math.min(failures, 5))));
      }
    }
  }

  async function start() {
    wireControls();
    var as = new URLSearchParams(location.search).get('as');
    followJournal();
    refreshControls().catch(function (error) { say('control-result', 'Controls unavailable: ' + error.message, true); });
    await actAs(as || undefined);
  }

  start().catch(function (error) { setStatus('Stopped: ' + error.message, true); });
})();
`;
