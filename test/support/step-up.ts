import type request from 'supertest';
import type { DataSource } from 'typeorm';
import { expect } from 'vitest';
import { type ConsoleFixtures, type StaffMember, csrfOf, formBody } from './console.js';

const UNESCAPE: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#96;': '`' };

/** Makes the person's console second factor six minutes old: the next sensitive action asks again. */
export function ageSecondFactor(db: DataSource, userId: string): Promise<unknown> {
  return db.query(`UPDATE sessions SET second_factor_at = now() - interval '6 minutes' WHERE user_id = $1 AND kind = 'console'`, [userId]);
}

/** The hidden fields of a page's form, as a browser posts them (a repeated name repeats). */
export function hiddenFieldsOf(page: string): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [, name, value] of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)" \/>/g)) {
    if (name === '_csrf') continue;
    (fields[name!] ??= []).push(value!.replace(/&(amp|lt|gt|quot|#39|#96);/g, (entity) => UNESCAPE[entity]!));
  }
  return fields;
}

/** Whether an answer is the inline step-up prompt (SECURITY 57). */
export const isStepUpPrompt = (answer: request.Response) => answer.status === 200 && answer.text.includes('Confirm it is you');

/**
 * A console POST that needs a fresh second factor (SECURITY 45, 57), end to end: with a second
 * factor six minutes old the action answers the inline step-up prompt and `unchanged` still
 * holds; the prompt's own form, posted as the browser would with a code from the person's app,
 * continues the same action with the fields as they were typed. Returns that answer. Any new
 * action behind `@StepUp()` can be checked with one call.
 */
export async function stepUpThenContinue(
  staff: ConsoleFixtures,
  agent: request.Agent,
  member: StaffMember,
  input: { form: string; action: string; fields: Record<string, string | string[]>; unchanged: () => Promise<void> },
): Promise<request.Response> {
  await ageSecondFactor(staff.db, member.id);
  const asked = await staff.post(agent, input.form, input.action, input.fields);
  expect(isStepUpPrompt(asked), `${input.action} asks for a fresh second factor`).toBe(true);
  await input.unchanged();
  const carried = hiddenFieldsOf(asked.text);
  for (const [name, value] of Object.entries(input.fields)) {
    expect(carried[name], `the prompt carries ${name}`).toEqual([value].flat().map((v) => v.replace(/\r\n/g, '\n')));
  }
  const code = await staff.secondFactor(member);
  return agent
    .post(input.action)
    .set('Origin', staff.origin)
    .type('form')
    .send(formBody({ _csrf: csrfOf(asked.text), ...carried, _stepup_code: code }));
}
