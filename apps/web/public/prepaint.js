/* global document, localStorage */
// Runs in <head> before first paint (a file, not inline: the CSP allows no inline script).
// Marks a logged-in reader and applies the reading comfort this device remembers
// (COMFORT_STORAGE_KEY in packages/domain), so the first frame already looks right.
(function () {
  var root = document.documentElement;
  try {
    if (localStorage.getItem('accesstoken')) root.setAttribute('data-auth', 'in');
  } catch {
    // Storage blocked (private mode, settings): the app sorts it out once it runs.
  }
  try {
    var c = JSON.parse(localStorage.getItem('kathamala.comfort') || 'null');
    if (!c || typeof c !== 'object') return;
    if (c.theme === 'light' || c.theme === 'sepia' || c.theme === 'dark')
      root.setAttribute('data-theme', c.theme);
    if (c.size === 0 || c.size === 1 || c.size === 2 || c.size === 3 || c.size === 4)
      root.setAttribute('data-text-size', String(c.size));
    if (c.spacing === 0 || c.spacing === 1 || c.spacing === 2)
      root.setAttribute('data-line-spacing', String(c.spacing));
  } catch {
    // A damaged value: the defaults (system theme, middle sizes) apply.
  }
})();
