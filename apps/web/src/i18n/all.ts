import { en } from './en.ts';
import { registerCatalogue } from './index.tsx';
import { si } from './si.ts';

// Both languages at once, for the server render (one process answers every language) and the
// web unit tests. The browser loads only the page's language (loadCatalogue).
registerCatalogue('en', en);
registerCatalogue('si', si);
