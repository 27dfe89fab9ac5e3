// `send-emails`: the transactional e-mail sender (issue 43, item 1). Supabase Cron calls it every
// minute (net.http_post with the service role key), and the outbox's triggers call it at once when
// they queue an e-mail; each run sends what is due (handler.ts).
import { requireSettings } from '../_shared/config.ts';
import { serveFunction } from '../_shared/serve.ts';
import { handleEmailRun } from './handler.ts';

requireSettings('send-emails');
serveFunction(handleEmailRun);
