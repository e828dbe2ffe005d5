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
 * The console's one script, served from `'self'` (no inline script anywhere): the copy buttons of
 * {@link COPY_SCRIPT}, and the passkey buttons (`[data-passkey]`): they fetch WebAuthn options, ask
 * the browser, and post the answer in the named form as JSON. Where the browser cannot, the buttons
 * stay hidden. A `time[data-local]` (shown in UTC) gets the reader's local time beside it.
 */
export const CONSOLE_SCRIPT = `${COPY_SCRIPT}${SUBMIT_ONCE_SCRIPT}
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
