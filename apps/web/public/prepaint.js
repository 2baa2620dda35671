/* global document, localStorage, PerformanceObserver, requestAnimationFrame, setTimeout */
// Runs in <head> before first paint. The server puts this text inline in every page (the CSP
// allows it by its hash, apps/server/src/modules/pages/ssr.ts), so the paint waits for no request;
// under vite dev it is this file. Marks a logged-in reader and applies the reading comfort this
// device remembers (COMFORT_STORAGE_KEY in packages/domain), so the first frame already looks
// right. Then loads the app once the server-rendered page is on screen (the server moves the
// app's script tags into data-app and data-preload on this element): its scripts then neither
// share the network with the page's text nor run before it is painted.
(function () {
  var root = document.documentElement;
  var me = document.currentScript;
  var app = me && me.getAttribute('data-app');
  if (app) {
    var load = function () {
      var chunks = (me.getAttribute('data-preload') || '').split(' ');
      for (var i = 0; i < chunks.length; i++) {
        if (!chunks[i]) continue;
        var link = document.createElement('link');
        link.rel = 'modulepreload';
        link.crossOrigin = '';
        link.href = chunks[i];
        document.head.appendChild(link);
      }
      var script = document.createElement('script');
      script.type = 'module';
      script.crossOrigin = '';
      script.src = app;
      document.head.appendChild(script);
    };
    var afterPaint = function () {
      // A hidden tab paints nothing: load at once.
      if (document.visibilityState === 'hidden') return load();
      var started = false;
      var start = function () {
        if (started) return;
        started = true;
        setTimeout(load, 0);
      };
      try {
        // The browser reports the first contentful paint once it is on screen.
        if (PerformanceObserver.supportedEntryTypes.indexOf('paint') >= 0) {
          new PerformanceObserver(function (list, observer) {
            if (!list.getEntriesByName('first-contentful-paint').length) return;
            observer.disconnect();
            start();
          }).observe({ type: 'paint', buffered: true });
          // A page that never paints text or an image still gets its app.
          setTimeout(start, 3000);
          return;
        }
      } catch {
        // No paint timing here: count frames instead.
      }
      // The first frame's callbacks run before it is painted, the second's after it.
      requestAnimationFrame(function () {
        requestAnimationFrame(start);
      });
    };
    if (document.readyState === 'loading') {
      document.addEventListener('DOMContentLoaded', afterPaint);
    } else afterPaint();
  }
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
