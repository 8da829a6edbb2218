import { http } from 'msw';
import type { CheckinRequest } from '../../api/gen/model';
import { server } from '../../test-utils';

/** Answers POST /api/checkins as `answer` says, recording each body (tests only). */
export function answerCheckins(answer: () => Response): CheckinRequest[] {
  const posted: CheckinRequest[] = [];
  server.use(
    http.post('/api/checkins', async ({ request }) => {
      posted.push((await request.json()) as CheckinRequest);
      return answer();
    }),
  );
  return posted;
}
