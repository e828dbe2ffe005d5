/**
 * A Copy button beside every `[data-copy]` element (the button copies the element's text as it is:
 * CSS may wrap it on screen, the text stays whole). Without JavaScript, or without the clipboard,
 * the text is still there to select and copy. Both UIs serve it.
 */
export const COPY_SCRIPT = `'use strict';
document.querySelectorAll('[data-copy]').forEach(function (target) {
  if (!navigator.clipboard) return;
  var button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary copy';
  var what = target.getAttribute('data-copy') || 'the value';
  var show = function (verb) {
    button.textContent = verb;
    button.setAttribute('aria-label', verb + ' ' + what);
  };
  show('Copy');
  button.addEventListener('click', function () {
    navigator.clipboard.writeText(target.textContent.trim()).then(function () {
      show('Copied');
      setTimeout(function () { show('Copy'); }, 2000);
    });
  });
  target.insertAdjacentElement('afterend', button);
});
`;

/**
 * A form is sent once: after the first submit its buttons say "Sending…" and further submits are
 * ignored until the page is shown again (Back restores it). The server acts once anyway (each
 * form's one-time token); this spares the person a second request. Both UIs serve it.
 */
export const SUBMIT_ONCE_SCRIPT = `
document.addEventListener('submit', function (event) {
  var form = event.target;
  if (!(form instanceof HTMLFormElement) || (form.method || '').toLowerCase() !== 'post') return;
  if (form.getAttribute('data-sending')) { event.preventDefault(); return; }
  form.setAttribute('data-sending', 'true');
  form.setAttribute('aria-busy', 'true');
  form.querySelectorAll('button[type=submit], button:not([type])').forEach(function (button) {
    button.setAttribute('aria-disabled', 'true');
    button.setAttribute('data-label', button.textContent);
    button.textContent = 'Sending…';
  });
});
window.addEventListener('pageshow', function () {
  document.querySelectorAll('form[data-sending]').forEach(function (form) {
    form.removeAttribute('data-sending');
    form.removeAttribute('aria-busy');
    form.querySelectorAll('button[data-label]').forEach(function (button) {
      button.textContent = button.getAttribute('data-label');
      button.removeAttribute('data-label');
      button.removeAttribute('aria-disabled');
    });
  });
});
`;

/**
 * A signed-in page warns before its idle session ends (`body[data-session-idle]`, written by the
 * layout): two minutes before, a notice says when and offers "Stay signed in" (a GET that keeps the
 * session alive); at the end, it says the session ended and links to signing in again — in the
 * console, a form sent from the page after that is kept and comes back once the person signs in.
 * Without JavaScript the page works as before; the server decides what a session is either way.
 */
export const SESSION_SCRIPT = `
(function () {
  var body = document.body;
  var idle = Number(body.getAttribute('data-session-idle'));
  var main = document.getElementById('main');
  if (!idle || !main) return;
  var warnBefore = Math.min(120, Math.floor(idle / 5));
  var box = null;
  var timers = [];
  function clock(at) {
    return at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  }
  function notice(ended, endsAt) {
    if (!box) {
      box = document.createElement('div');
      box.className = 'flash warning session-notice';
      box.setAttribute('role', 'alert');
      main.querySelector('.content').prepend(box);
    }
    box.textContent = '';
    var text = document.createElement('p');
    var action = document.createElement(ended ? 'a' : 'button');
    if (ended) {
      var kept = body.getAttribute('data-session-keeps') === 'forms';
      var label = body.getAttribute('data-session-sign-in-label');
      text.textContent = 'Your session has ended after ' + Math.round(idle / 60) + ' minutes without activity. ' + label +
        (kept ? ' to go on: a form you send from this page is kept and comes back after you sign in.' : ' to go on.');
      action.href = body.getAttribute('data-session-sign-in');
      action.className = 'button';
      action.textContent = label;
    } else {
      text.textContent = 'Your session ends at ' + clock(endsAt) + ' unless you do something. ';
      action.type = 'button';
      action.textContent = 'Stay signed in';
      action.addEventListener('click', stay);
    }
    box.append(text, action);
  }
  function start() {
    timers.forEach(clearTimeout);
    var endsAt = new Date(Date.now() + idle * 1000);
    timers = [
      setTimeout(function () { notice(false, endsAt); }, (idle - warnBefore) * 1000),
      setTimeout(function () { notice(true); }, idle * 1000),
    ];
  }
  function stay() {
    fetch(body.getAttribute('data-session-alive'), { credentials: 'same-origin', cache: 'no-store', redirect: 'manual' })
      .then(function (response) {
        if (response.status !== 204) return notice(true);
        if (box) box.remove();
        box = null;
        start();
      })
      .catch(function () { notice(true); });
  }
  start();
})();
`;

/**
 * The console's one script, served from `'self'` (no inline script anywhere): the copy buttons of
 * {@link COPY_SCRIPT}, and the passkey buttons (`[data-passkey]`): they fetch WebAuthn options, ask
 * the browser, and post the answer in the named form as JSON. Where the browser cannot, the buttons
 * stay hidden. A `time[data-local]` (shown in UTC) gets the reader's local time beside it.
 */
export const CONSOLE_SCRIPT = `${COPY_SCRIPT}${SUBMIT_ONCE_SCRIPT}${SESSION_SCRIPT}
document.querySelectorAll('time[data-local]').forEach(function (time) {
  var at = new Date(time.getAttribute('datetime'));
  if (isNaN(at.getTime())) return;
  var local = document.createElement('span');
  local.className = 'hint local-time';
  local.textContent = at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }) + ' local';
  time.insertAdjacentElement('afterend', local);
});
var PKC = window.PublicKeyCredential;
if (PKC && PKC.parseCreationOptionsFromJSON && PKC.parseRequestOptionsFromJSON) {
  document.querySelectorAll('[data-passkey]').forEach(function (box) {
    var form = document.getElementById(box.getAttribute('data-form'));
    var status = box.querySelector('[role=status]');
    var register = box.getAttribute('data-passkey') === 'register';
    box.hidden = false;
    box.querySelector('button').addEventListener('click', function () {
      status.textContent = 'Waiting for your passkey…';
      // The options request is not the form's sending: the form's one-time token stays for the answer.
      var fields = new FormData(form);
      fields.delete('_once');
      fetch(box.getAttribute('data-options'), {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
      })
        .then(function (response) {
          if (!response.ok) throw new Error('options');
          return response.json();
        })
        .then(function (json) {
          return register
            ? navigator.credentials.create({ publicKey: PKC.parseCreationOptionsFromJSON(json) })
            : navigator.credentials.get({ publicKey: PKC.parseRequestOptionsFromJSON(json) });
        })
        .then(function (credential) {
          form.querySelector('[name=credential]').value = JSON.stringify(credential.toJSON());
          form.submit();
        })
        .catch(function () {
          status.textContent = 'No passkey was used. Try again, or use a code from your authenticator app.';
        });
    });
  });
}
`;
