import { preloadScreenData } from './app/preload-data';
import { preloadPage } from './app/route-table';
import { createQueryClient } from './lib/query-client';
import { preloadAuthClient } from './lib/supabase';
import './index.css';

// The screen's chunk, the signed-in user and the screen's data are asked for first; React DOM and
// the app (fetched beside this module: vite.config.ts preloads them) are evaluated in a later
// task, so these requests do not wait for that evaluation.
preloadAuthClient();
preloadPage(window.location.pathname);
const queryClient = createQueryClient();
preloadScreenData(queryClient, window.location.pathname);
void import('./app/render').then(({ renderApp }) => renderApp(queryClient));
