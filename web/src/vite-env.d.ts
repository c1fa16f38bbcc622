/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API base chosen at build time, e.g. "https://api.example.com/api". */
  readonly VITE_API_BASE?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
