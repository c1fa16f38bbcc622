/* Locator widget (docs/embed.md): mounts the store locator in an iframe of this script's own site
   and sizes it to its content. Options are data- attributes of the script tag or of a
   <div data-locator-widget> element; the iframe alone works without this script. */
(function () {
  "use strict";
  var script = document.currentScript;
  if (!script || !script.src) return;
  var base = new URL(script.src).origin;
  var OPTIONS = ["partner", "brand", "product", "in_stock", "place", "lat", "lon", "filters", "theme", "lang", "view"];
  var FILTERS = ["open", "delivery", "online", "curbside", "licensed"];
  var frames = [];

  function attr(el, name) {
    var v = el.getAttribute("data-" + name);
    return v === null ? null : v.trim();
  }

  function source(el) {
    var params = new URLSearchParams();
    OPTIONS.forEach(function (name) {
      var v = attr(el, name);
      if (v === null && name === "lon") v = attr(el, "lng");
      if (v === null && el !== script) v = attr(script, name);
      if (v === null || v === "") return;
      if (name === "filters") {
        v.split(",").forEach(function (f) {
          f = f.trim();
          if (f) params.set(FILTERS.indexOf(f) >= 0 ? f : "filter", FILTERS.indexOf(f) >= 0 ? "1" : f);
        });
        return;
      }
      params.set(name, v);
    });
    params.set("host", window.location.origin);
    return base + "/embed?" + params.toString();
  }

  function mount(el) {
    if (el.getAttribute("data-locator-mounted")) return;
    el.setAttribute("data-locator-mounted", "1");
    var frame = document.createElement("iframe");
    frame.src = source(el);
    frame.title = attr(el, "title") || "Store locator";
    frame.setAttribute("allow", "geolocation");
    frame.setAttribute("referrerpolicy", "strict-origin-when-cross-origin");
    frame.style.width = "100%";
    frame.style.border = "0";
    frame.style.height = attr(el, "height") || "640px";
    if (el === script) {
      var box = document.createElement("div");
      box.appendChild(frame);
      script.parentNode.insertBefore(box, script.nextSibling);
    } else {
      el.appendChild(frame);
    }
    frames.push(frame);
  }

  // Only the locator's own frames may size themselves, and only to a sane height.
  window.addEventListener("message", function (event) {
    if (event.origin !== base) return;
    var data = event.data;
    if (!data || data.type !== "locator:size" || typeof data.height !== "number") return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.max(200, Math.min(5000, Math.ceil(data.height))) + "px";
      }
    }
  });

  var targets = document.querySelectorAll("[data-locator-widget]");
  if (targets.length === 0) mount(script);
  for (var i = 0; i < targets.length; i++) mount(targets[i]);
})();
