import { StrictMode, startTransition } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App";
import { embed } from "./lib/embed";
import { keepFirstFrame } from "./lib/firstFrame";
import "./index.css";

const root = document.getElementById("root");
if (!root) throw new Error("missing #root element");
keepFirstFrame(root);
// The widget's theme and sizing: a chunk only /embed loads (docs/embed.md).
if (embed) {
  const options = embed;
  void import("./lib/embedFrame").then((m) => m.startEmbed(options));
}

// The first render as a transition: React renders the page in slices of a few milliseconds and
// lets the browser run in between, instead of one long task right after the script's evaluation
// (the page appears at the same time; the main thread is not blocked meanwhile).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
