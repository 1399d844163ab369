/**
 * The live page's files, as text: kept in the source so that the page works wherever the
 * simulator runs (sources, the compiled bundles, the npm package) with no file to find at run
 * time and no build step. The script (script.ts) is plain browser JavaScript (no framework).
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
  <div class="brand">
    <h1 id="realm-name">Chat simulator</h1>
    <p id="status" class="status" role="status">Connecting…</p>
  </div>
  <div class="acting">
    <label for="act-as">Act as</label>
    <select id="act-as" disabled></select>
  </div>
  <p class="clock">Simulated time: <time id="sim-time">…</time></p>
</header>
<div class="layout">
  <button type="button" id="channels-toggle" class="channels-toggle" aria-expanded="false" aria-controls="channels">Channels</button>
  <nav id="channels" aria-label="Channels">
    <h2>Channels</h2>
    <ul id="views" class="views"></ul>
  </nav>
  <main>
    <h2 id="messages-title" tabindex="-1">All messages</h2>
    <form id="compose" class="compose" novalidate>
      <div class="compose-where">
        <p id="compose-to" class="compose-to"></p>
        <label id="channel-field" class="field">Channel <select id="compose-channel" name="channel"></select></label>
        <label id="topic-field" class="field">Topic <input id="compose-topic" name="topic" autocomplete="off"></label>
      </div>
      <label class="field message-field">Message <textarea id="compose-content" name="content" rows="2" required></textarea></label>
      <div class="compose-actions">
        <button type="submit" id="send">Send</button>
        <span id="compose-result" class="compose-result" role="status"></span>
      </div>
    </form>
    <p id="typing" class="typing" aria-live="polite"></p>
    <ol id="messages" class="messages" aria-labelledby="messages-title"></ol>
  </main>
  <aside aria-label="Simulator, users, journal and events">
    <section aria-labelledby="controls-title" class="controls">
      <h2 id="controls-title">Simulator</h2>
      <div class="buttons">
        <button type="button" id="reset">Reset</button>
        <button type="button" id="snapshot">Snapshot</button>
        <button type="button" id="restore" disabled>Restore</button>
      </div>
      <div class="advance">
        <label for="advance-seconds">Seconds</label>
        <input id="advance-seconds" type="number" min="1" step="1" value="60" inputmode="numeric">
        <button type="button" id="advance">Advance clock</button>
      </div>
      <label class="check"><input type="checkbox" id="rate-limits"> Rate limits (Zulip's)</label>
      <fieldset class="faults">
        <legend>Faults</legend>
        <label class="field">Route <select id="fault-route">
          <option value="POST /messages">POST /messages (send)</option>
          <option value="GET /events">GET /events (event queue)</option>
          <option value="POST /messages/{message_id}/reactions">POST …/reactions</option>
          <option value="">Every route</option>
        </select></label>
        <label class="field">Fault <select id="fault-kind">
          <option value="rate">Rate limited (429)</option>
          <option value="error">Server error (500)</option>
          <option value="slow">Slow (3 s)</option>
          <option value="drop">Dropped connection</option>
        </select></label>
        <button type="button" id="add-fault">Add fault</button>
        <ul id="faults" class="fault-list"></ul>
      </fieldset>
      <p id="control-result" class="control-result" role="status"></p>
    </section>
    <section aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <ul id="users" class="users" aria-labelledby="users-title"></ul>
    </section>
    <section aria-labelledby="journal-title" class="journal">
      <h2 id="journal-title">Journal</h2>
      <ol id="journal" class="log"></ol>
    </section>
    <section aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      <ol id="events" class="log"></ol>
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
h1 { font-size: 1.2rem; }
h2 { font-size: 1rem; }
ul, ol { list-style: none; margin: 0; padding: 0; }
button, input, select, textarea { font: inherit; }
button { cursor: pointer; border: 1px solid #9aa4b0; background: #fff; color: #1b1f24; border-radius: 4px; padding: .3rem .65rem; }
button:hover { background: #eef1f5; }
button:disabled { cursor: default; color: #6b7480; background: #f1f3f5; }
input, select, textarea { border: 1px solid #9aa4b0; border-radius: 4px; padding: .3rem .4rem; background: #fff; color: #1b1f24; max-width: 100%; }
:focus-visible { outline: 3px solid #0b57d0; outline-offset: 2px; }
.skip { position: absolute; left: .5rem; top: -4rem; background: #fff; padding: .5rem .75rem; z-index: 2; }
.skip:focus { top: .5rem; }
.top { background: #1d4f91; color: #fff; padding: .5rem 1rem; display: flex; flex-wrap: wrap; align-items: center; gap: .25rem 1.25rem; }
.top h1 { margin: 0; }
.top p { margin: 0; font-size: .875rem; }
.top :focus-visible { outline-color: #ffd166; }
.brand { flex: 1 1 12rem; min-width: 0; }
.status { font-weight: 600; }
.status.problem { color: #ffd7a8; }
.acting { display: flex; align-items: center; gap: .4rem; }
.acting label { font-weight: 600; font-size: .875rem; }
.acting select { max-width: 14rem; }
.layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: .75rem; padding: .75rem; }
.layout > * { min-width: 0; }
nav, main, aside > section { background: #fff; border: 1px solid #d5d9de; border-radius: 6px; padding: .75rem; }
aside > section + section { margin-top: .75rem; }
.channels-toggle { justify-self: start; }
nav[hidden] { display: none; }
.views li { margin: 0; }
.views ul { margin: 0 0 .25rem 1rem; }
.views button { display: flex; justify-content: space-between; gap: .5rem; width: 100%; text-align: left; border: 0; padding: .3rem .5rem; overflow-wrap: anywhere; }
.views ul button { font-size: .875rem; color: #3d4650; }
.views button[aria-current="true"] { background: #dde7f5; font-weight: 600; }
.views .heading { font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; color: #59636e; margin: .5rem .5rem .15rem; }
.unread { flex: none; background: #1d4f91; color: #fff; border-radius: 9px; padding: 0 .45rem; font-size: .75rem; font-weight: 600; align-self: center; }
.compose { display: grid; gap: .4rem; margin: 0 0 .6rem; padding: .6rem; background: #f1f5fb; border: 1px solid #c9d6ea; border-radius: 6px; }
.compose-where { display: flex; flex-wrap: wrap; gap: .4rem .75rem; align-items: end; }
.compose-to { margin: 0; font-size: .875rem; color: #3d4650; }
.field { display: flex; flex-direction: column; font-size: .8rem; font-weight: 600; color: #3d4650; gap: .15rem; min-width: 0; }
.field[hidden] { display: none; }
.message-field textarea { width: 100%; resize: vertical; font-weight: 400; }
.compose-actions { display: flex; gap: .75rem; align-items: center; flex-wrap: wrap; }
#send { background: #1d4f91; color: #fff; border-color: #1d4f91; font-weight: 600; }
.compose-result, .control-result { font-size: .85rem; color: #59636e; margin: 0; }
.compose-result.problem, .control-result.problem { color: #a40e26; }
.typing { min-height: 1.3em; margin: 0 0 .25rem; font-size: .85rem; font-style: italic; color: #59636e; }
.messages > li { border-top: 1px solid #e3e6ea; padding: .6rem 0; }
.messages > li:first-child { border-top: 0; }
.meta { display: flex; flex-wrap: wrap; gap: .15rem .6rem; font-size: .875rem; color: #59636e; }
.sender { color: #1b1f24; font-weight: 600; }
.edited { font-style: italic; }
.content { overflow-wrap: anywhere; }
.content p { margin: .25rem 0; }
.content code { background: #eef1f4; border: 1px solid #dde1e6; border-radius: 3px; padding: 0 .2rem; font-size: .875em; }
.content pre { overflow-x: auto; background: #f6f8fa; border: 1px solid #dde1e6; padding: .5rem; border-radius: 4px; }
.content pre code { background: none; border: 0; padding: 0; }
.content .codehilite[data-code-language="math"] pre, .content .katex-display { text-align: center; font: italic 1.1rem "Latin Modern Math", "STIX Two Math", "Cambria Math", serif; background: #fbfaf5; }
.content .katex { font: italic 1.05em "Latin Modern Math", "STIX Two Math", "Cambria Math", serif; }
.content table { display: block; overflow-x: auto; border-collapse: collapse; }
.content th, .content td { border: 1px solid #d5d9de; padding: .15rem .4rem; }
.content img { max-width: 100%; height: auto; }
.content img.emoji, .reaction img, .picker img { width: 1.25em; height: 1.25em; vertical-align: -.25em; }
.content span.emoji { font-size: 1.2em; line-height: 1; }
.content blockquote { margin: .25rem 0; padding-left: .75rem; border-left: 3px solid #c9ced4; color: #3d4650; }
.content .user-mention, .content .user-group-mention, .content .topic-mention { background: #e3ecfa; color: #153e75; border-radius: 3px; padding: 0 .2rem; font-weight: 600; white-space: nowrap; }
.content .user-mention.me, .content .user-group-mention.me { background: #fbe7b4; color: #5c3b00; }
.content .user-mention.silent { font-weight: 400; }
.content a { color: #0b57d0; }
.content a.stream, .content a.stream-topic { background: #eef1f5; color: #153e75; border-radius: 3px; padding: 0 .2rem; font-weight: 600; text-decoration: none; }
.content .spoiler-block { border: 1px solid #d5d9de; border-radius: 4px; margin: .3rem 0; }
.content .spoiler-header { padding: .1rem .5rem; }
.content .spoiler-header p { display: inline; }
.content .spoiler-toggle { margin-right: .4rem; padding: 0 .4rem; font-size: .8rem; }
.content .spoiler-content { padding: 0 .5rem; border-top: 1px dashed #d5d9de; }
.content .spoiler-content[hidden] { display: none; }
.content time { background: #eef1f5; border-radius: 3px; padding: 0 .2rem; }
.reactions { display: flex; flex-wrap: wrap; gap: .3rem; align-items: center; margin-top: .3rem; }
.reaction { position: relative; display: inline-flex; gap: .3rem; align-items: center; padding: .05rem .45rem; border-radius: 12px; border-color: #c9d6ea; background: #f5f8fd; }
.reaction[aria-pressed="true"] { background: #dde7f5; border-color: #1d4f91; }
.reaction .count { font-size: .85rem; font-weight: 600; }
.reaction .who { display: none; position: absolute; left: 0; top: calc(100% + 4px); z-index: 3; background: #1b1f24; color: #fff; font-size: .8rem; padding: .25rem .45rem; border-radius: 4px; white-space: nowrap; }
.reaction:hover .who, .reaction:focus .who { display: block; }
.add-reaction { padding: .05rem .45rem; border-radius: 12px; font-size: .85rem; color: #3d4650; }
.picker { display: flex; flex-wrap: wrap; gap: .2rem; margin-top: .3rem; padding: .3rem; border: 1px solid #c9d6ea; border-radius: 6px; background: #fff; }
.picker[hidden] { display: none; }
.picker button { font-size: 1.15rem; line-height: 1; padding: .2rem .3rem; }
.empty { color: #59636e; font-style: italic; }
.users li { display: flex; align-items: baseline; gap: .4rem; padding: .15rem 0; overflow-wrap: anywhere; }
.dot { flex: none; width: .6rem; height: .6rem; border-radius: 50%; border: 1px solid #59636e; }
.dot.active { background: #1a7f37; border-color: #1a7f37; }
.dot.idle { background: #fff; border: 2px solid #d29922; }
.presence { color: #59636e; font-size: .8rem; }
.controls .buttons, .controls .advance { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin-bottom: .5rem; }
.advance input { width: 5.5rem; }
.check { display: flex; gap: .4rem; align-items: center; margin-bottom: .5rem; }
.faults { border: 1px solid #d5d9de; border-radius: 4px; margin: 0 0 .4rem; padding: .4rem .6rem .6rem; display: flex; flex-wrap: wrap; gap: .4rem; align-items: end; }
.faults legend { font-weight: 600; font-size: .875rem; }
.fault-list { flex-basis: 100%; font-size: .85rem; }
.fault-list li { display: flex; gap: .5rem; align-items: center; justify-content: space-between; padding: .15rem 0; overflow-wrap: anywhere; }
.log { max-height: 22rem; overflow-y: auto; }
.log li { border-top: 1px solid #e3e6ea; padding: .3rem 0; font-size: .85rem; }
.log li:first-child { border-top: 0; }
.log summary { cursor: pointer; overflow-wrap: anywhere; }
.log .bad { color: #a40e26; font-weight: 600; }
.log h3 { font-size: .8rem; margin: .35rem 0 .1rem; }
.log pre { margin: 0; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: .78rem; background: #f1f3f5; padding: .4rem; border-radius: 4px; max-height: 16rem; }
@media (min-width: 60em) {
  .layout { grid-template-columns: 14rem minmax(0, 1fr) 23rem; align-items: start; }
  .channels-toggle { display: none; }
  nav[hidden] { display: block; }
  nav { grid-column: 1; grid-row: 1; }
  main { grid-column: 2; grid-row: 1; }
  aside { grid-column: 3; grid-row: 1; }
}
`;

export { LIVE_JS } from './script.ts';
