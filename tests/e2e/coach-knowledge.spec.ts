/**
 * What the language model is sent about the knowledge base (the fake OpenAI server records every
 * request): with passages, the passages and the rule that facts come from them only; with none,
 * a knowledge message that says so, that facts asked for must get an honest "not in my knowledge"
 * while the conversation itself stays natural, and what the knowledge base covers. An off-topic
 * question gets no passage of the unrelated document.
 */
import { expect, test } from './admin';
import { knowledgePdf, modelRequests, openCoach, textInput, uploadKnowledge } from './coach';

type Message = { role: string; content: string };

/** Sends `text` in the chat and returns the system messages of the model request that carried it. */
async function systemMessagesFor(page: import('@playwright/test').Page, text: string): Promise<Message[]> {
  await textInput(page).fill(text);
  // The chat takes the next message once the previous answer has been given.
  await expect(page.getByRole('button', { name: 'Senden' })).toBeEnabled({ timeout: 20_000 });
  await textInput(page).press('Enter');
  const carrying = async () => (await modelRequests()).find((entry) => entry.body.messages.at(-1)?.content === text);
  await expect.poll(async () => (await carrying()) !== undefined, { timeout: 10_000 }).toBe(true);
  return (await carrying())?.body.messages.filter((message) => message.role === 'system') ?? [];
}

// One document, one chat: the greeting and the off-topic question come first, so no earlier
// question about the document can carry its passage into them.
test('the knowledge the model is sent: none for a greeting, none off-topic, passages when found', async ({ page, loginAsAdmin }, testInfo) => {
  const marker = `Mondscheintarif${testInfo.testId.replace(/\W/g, '').slice(0, 6)}`;
  const row = `Der ${marker} kostet 45 Euro pro Abend und gilt montags bis donnerstags ab 20 Uhr.`;
  await loginAsAdmin(page);
  await uploadKnowledge(page, `${marker}.pdf`, knowledgePdf([row]));
  await openCoach(page);

  await test.step('nothing found for a greeting: the model hears that, and that the conversation stays natural', async () => {
    const [persona, knowledge, ...more] = await systemMessagesFor(page, 'Guten Morgen Mia, schön, dich kennenzulernen!');
    expect(persona?.content).toContain('Du bist Mia');
    expect(more).toEqual([]);
    expect(knowledge?.content).toMatch(/^Wissen aus der Wissensdatenbank: Zu dieser Nachricht steht nichts in der Wissensdatenbank\./u);
    expect(knowledge?.content).toContain('Sag ehrlich, dass das nicht in deinem Wissen steht, statt etwas zu erfinden.');
    expect(knowledge?.content).toContain('Begrüßung, Mitgefühl, Rückfragen und allgemeine, unbedenkliche Coaching-Tipps brauchen kein Wissen aus Dokumenten');
    expect(knowledge?.content).not.toContain('<<<Auszug');
  });

  await test.step('an off-topic question: no passage of the document, and what the knowledge base covers', async () => {
    // Shares "kostet" with the document, asks about nothing it states.
    const [, knowledge, ...more] = await systemMessagesFor(page, 'Was kostet ein Flug nach Mallorca im Sommer?');
    expect(more).toEqual([]);
    expect(knowledge?.content).toMatch(/^Wissen aus der Wissensdatenbank: Zu dieser Nachricht steht nichts in der Wissensdatenbank\./u);
    expect(knowledge?.content).not.toContain('<<<Auszug');
    expect(knowledge?.content).not.toContain(row);
    expect(knowledge?.content).toMatch(/\n\nDeine Wissensdatenbank enthält Dokumente zu „[^“]+“/u);
  });

  await test.step('passages found: quoted, with the rule that facts come only from them', async () => {
    const [persona, knowledge, ...more] = await systemMessagesFor(page, `Was kostet der ${marker}?`);
    expect(persona?.content).toContain('Du bist Mia');
    expect(more).toEqual([]);
    expect(knowledge?.content).toContain(row);
    expect(knowledge?.content).toContain('Fakten wie Preise, Termine, Fristen, Regeln, Schritte, Namen und Zahlen nennst du nur so, wie sie in den Auszügen stehen.');
  });
});
