/**
 * What the language model is sent about the knowledge base (the fake OpenAI server records every
 * request): with passages, the passages and the rule that facts come from them only; with none,
 * a knowledge message that says so, that facts asked for must get an honest "not in my knowledge"
 * while the conversation itself stays natural, and what the knowledge base covers. An off-topic
 * question gets no passage of the unrelated documents.
 */
import { expect, test } from './admin';
import { knowledgePdf, modelRequests, openCoach, textInput, uploadKnowledge } from './coach';

type Message = { role: string; content: string };

/** Sends `text` in the chat and returns the system messages of the model request that carried it. */
async function systemMessagesFor(page: import('@playwright/test').Page, text: string): Promise<Message[]> {
  await textInput(page).fill(text);
  await textInput(page).press('Enter');
  const carrying = async () => (await modelRequests()).find((entry) => entry.body.messages.at(-1)?.content === text);
  await expect.poll(async () => (await carrying()) !== undefined, { timeout: 10_000 }).toBe(true);
  return (await carrying())?.body.messages.filter((message) => message.role === 'system') ?? [];
}

test.describe('the knowledge the model is sent', () => {
  test('passages found: quoted, with the rule that facts come only from them', async ({ page, loginAsAdmin }, testInfo) => {
    const marker = `Mondscheintarif${testInfo.testId.replace(/\W/g, '').slice(0, 6)}`;
    const row = `Der ${marker} kostet 45 Euro pro Abend und gilt montags bis donnerstags ab 20 Uhr.`;
    await loginAsAdmin(page);
    await uploadKnowledge(page, `${marker}.pdf`, knowledgePdf([row]));

    await openCoach(page);
    const question = `Was kostet der ${marker}?`;
    const [persona, knowledge, ...more] = await systemMessagesFor(page, question);
    expect(persona?.content).toContain('Du bist Mia');
    expect(more).toEqual([]);
    expect(knowledge?.content).toContain(row);
    expect(knowledge?.content).toContain('Fakten wie Preise, Termine, Fristen, Regeln, Schritte, Namen und Zahlen nennst du nur so, wie sie in den Auszügen stehen.');
  });

  test('nothing found for a greeting: the model hears that, and that the conversation stays natural', async ({ page }) => {
    await openCoach(page);
    const greeting = 'Guten Morgen Mia, schön, dich kennenzulernen!';
    const [, knowledge, ...more] = await systemMessagesFor(page, greeting);
    expect(more).toEqual([]);
    expect(knowledge?.content).toMatch(/^Wissen aus der Wissensdatenbank: Zu dieser Nachricht steht nichts in der Wissensdatenbank\./u);
    expect(knowledge?.content).toContain('Sag ehrlich, dass das nicht in deinem Wissen steht, statt etwas zu erfinden.');
    expect(knowledge?.content).toContain('Begrüßung, Mitgefühl, Rückfragen und allgemeine, unbedenkliche Coaching-Tipps brauchen kein Wissen aus Dokumenten');
    expect(knowledge?.content).not.toContain('<<<Auszug');
  });

  test('an off-topic question: no passage of the unrelated document, and what the knowledge base covers', async ({ page, loginAsAdmin }, testInfo) => {
    const marker = `Gartenordnung${testInfo.testId.replace(/\W/g, '').slice(0, 6)}`;
    const rule = `Die ${marker} regelt, dass der Rasen im Innenhof nur samstags gemäht wird und die Kosten die Hausverwaltung trägt.`;
    await loginAsAdmin(page);
    await uploadKnowledge(page, `${marker}.pdf`, knowledgePdf([rule]));

    await openCoach(page);
    // Shares "kostet" with the document, asks about nothing it states.
    const question = 'Was kostet ein Flug nach Mallorca im Sommer?';
    const [, knowledge, ...more] = await systemMessagesFor(page, question);
    expect(more).toEqual([]);
    expect(knowledge?.content).toMatch(/^Wissen aus der Wissensdatenbank: Zu dieser Nachricht steht nichts in der Wissensdatenbank\./u);
    expect(knowledge?.content).not.toContain('<<<Auszug');
    expect(knowledge?.content).not.toContain('Rasen im Innenhof');
    expect(knowledge?.content).toMatch(/\n\nDeine Wissensdatenbank enthält Dokumente zu „[^“]+“/u);
  });
});
