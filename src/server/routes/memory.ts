/**
 * Memory routes, per agency and user: what is remembered (`GET`), a similarity search
 * (`GET …/search?q=`), forgetting (`DELETE`, which says what it deleted) and rolling working
 * memory back to an earlier version (`POST …/working/rollback`).
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { callIdSchema } from '../../agency/callOptions.js';
import type { Agency } from '../../agency/agency.js';
import { forgetUser, listMemory, searchMemory } from '../../memory/admin.js';
import { rollbackWorkingMemory } from '../../memory/working.js';
import { agencyNamed, type RouteContext } from '../context.js';
import { HttpError, readJson, readQuery, validationError } from '../errors.js';

const searchQuery = z.object({
  q: z.string().min(1, 'expected a query: ?q=TEXT'),
  top: z.coerce.number().int().positive().max(100).optional(),
});
const rollbackBody = z.object({ version: z.number().int().positive() }).strict();

function userParam(raw: string): string {
  const parsed = callIdSchema.safeParse(raw);
  if (!parsed.success) throw validationError(parsed.error, 'user id in the path');
  return parsed.data;
}

function memoryOf(agency: Agency) {
  if (agency.memory) return agency.memory;
  throw new HttpError(
    409,
    'CONFIG_INVALID',
    `Agency "${agency.name}" has no memory. Give it one: new Agency({ memory: { embedder, recall: {} } }).`,
  );
}

/** `/memory` routes. */
export function memoryRoutes(context: RouteContext): Hono {
  const app = new Hono();

  app.get('/:agency/users/:userId', async (c) => {
    const agency = agencyNamed(context, c.req.param('agency'));
    const userId = userParam(c.req.param('userId'));
    const found = await listMemory(memoryOf(agency).backend, userId, agency.name);
    return c.json({ agency: agency.name, userId, ...found });
  });

  app.get('/:agency/users/:userId/search', async (c) => {
    const agency = agencyNamed(context, c.req.param('agency'));
    const userId = userParam(c.req.param('userId'));
    const query = readQuery(c, searchQuery);
    const memory = memoryOf(agency);
    if (!memory.embedder) {
      throw new HttpError(
        409,
        'CONFIG_INVALID',
        `Agency "${agency.name}" has no embedder, so its memory cannot be searched. Give it memory: { embedder }.`,
      );
    }
    const hits = await searchMemory(memory.backend, memory.embedder, query.q, {
      userId,
      agency: agency.name,
      topK: query.top ?? 10,
    });
    return c.json({ agency: agency.name, userId, hits });
  });

  app.delete('/:agency/users/:userId', async (c) => {
    const agency = agencyNamed(context, c.req.param('agency'));
    const userId = userParam(c.req.param('userId'));
    const deleted = await forgetUser(memoryOf(agency).backend, userId, agency.name);
    return c.json({ agency: agency.name, userId, deleted });
  });

  app.post('/:agency/users/:userId/working/rollback', async (c) => {
    const agency = agencyNamed(context, c.req.param('agency'));
    const userId = userParam(c.req.param('userId'));
    const { version } = await readJson(c, rollbackBody);
    const restored = await rollbackWorkingMemory(
      memoryOf(agency).backend,
      { agency: agency.name, userId },
      version,
    ).catch((error: unknown) => {
      throw new HttpError(400, 'INVALID_BODY', (error as Error).message, {
        path: 'version',
        cause: error,
      });
    });
    return c.json({ agency: agency.name, userId, working: restored });
  });

  return app;
}
