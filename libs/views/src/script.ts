/**
 * The console's one script, served from `'self'` (no inline script anywhere): a Copy button beside
 * every `[data-copy]` element. Without JavaScript the text is still there to select and copy.
 */
export const CONSOLE_SCRIPT = `'use strict';
document.querySelectorAll('[data-copy]').forEach(function (target) {
  if (!navigator.clipboard) return;
  var button = document.createElement('button');
  button.type = 'button';
  button.className = 'secondary copy';
  button.textContent = 'Copy';
  button.setAttribute('aria-label', 'Copy ' + (target.getAttribute('data-copy') || 'the value'));
  button.addEventListener('click', function () {
    navigator.clipboard.writeText(target.textContent.trim()).then(function () {
      button.textContent = 'Copied';
      setTimeout(function () { button.textContent = 'Copy'; }, 2000);
    });
  });
  target.insertAdjacentElement('afterend', button);
});
`;
