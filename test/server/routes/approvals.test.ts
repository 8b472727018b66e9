import { describe, expect, it } from 'vitest';
import { approvalAgency } from '../approvalAgency.js';
import { json, listen, post } from '../helpers.js';

describe('POST /agencies/:name/resume', () => {
  it('resumes an interrupted call with the approvals given', async () => {
    const { agency, executed } = approvalAgency();
    const server = await listen({ agencies: [agency] });
    const first = await json(
      await post(`${server.url}/agencies/office/responses`, { message: 'tidy' }),
    );
    expect(first.interruptions).toEqual([
      expect.objectContaining({
        toolName: 'delete_reports',
        agent: 'Clerk',
        arguments: '{"year":2020}',
      }),
    ]);
    expect(executed).toEqual([]);
    const res = await post(`${server.url}/agencies/office/resume`, {
      state: first.state,
      approve: [first.interruptions[0].callId],
    });
    expect(res.status).toBe(200);
    const resumed = await json(res);
    expect(resumed.interruptions).toBeUndefined();
    expect(resumed.chatId).toBe(first.chatId);
    expect(resumed.finalOutput).toBe('Front: Clerk: deleted 2020');
    expect(executed).toEqual([2020]);
  });

  it('rejects a call when told to', async () => {
    const { agency, executed } = approvalAgency();
    const server = await listen({ agencies: [agency] });
    const first = await json(
      await post(`${server.url}/agencies/office/responses`, { message: 'tidy' }),
    );
    const resumed = await json(
      await post(`${server.url}/agencies/office/resume`, { state: first.state, reject: true }),
    );
    expect(executed).toEqual([]);
    expect(resumed.finalOutput).toMatch(/^Front: Clerk: /);
    expect(resumed.finalOutput).not.toContain('deleted');
  });

  it('answers 400 for a state that is not a pending call, and for a bad body', async () => {
    const { agency } = approvalAgency();
    const server = await listen({ agencies: [agency] });
    const bad = await post(`${server.url}/agencies/office/resume`, { state: '{"format":"other"}' });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error).toMatchObject({ code: 'INVALID_BODY', path: 'state' });
    const extra = await post(`${server.url}/agencies/office/resume`, { state: 'x', nope: 1 });
    expect(extra.status).toBe(400);
  });
});
