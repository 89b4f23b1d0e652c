import { isPdfFile, storageKeyFor } from './documents';

describe('storageKeyFor', () => {
  it('is the timestamp plus a safe version of the file name', () => {
    expect(storageKeyFor('Stress & Atmung (2026).pdf', 1700000000000)).toBe('1700000000000-Stress_Atmung_2026_.pdf');
  });

  it('keeps umlauts readable and drops path tricks', () => {
    expect(storageKeyFor('Übungen für Größe.pdf', 1)).toBe('1-Ubungen_fur_Gro_e.pdf');
    expect(storageKeyFor('../../etc/passwd.pdf', 1)).toBe('1-etc_passwd.pdf');
  });

  it('never ends up empty or overly long', () => {
    expect(storageKeyFor('???', 5)).toBe('5-document.pdf');
    expect(storageKeyFor(`${'a'.repeat(300)}.pdf`, 5).length).toBeLessThanOrEqual(2 + 120);
  });
});

describe('isPdfFile', () => {
  const file = (content: string, name: string, type: string) => new File([content], name, { type });

  it('accepts a PDF by type and content', async () => {
    expect(await isPdfFile(file('%PDF-1.7\n...', 'a.pdf', 'application/pdf'))).toBe(true);
  });

  it('refuses a text file that only claims to be a PDF', async () => {
    expect(await isPdfFile(file('Nur Notizen', 'notizen.pdf', 'application/pdf'))).toBe(false);
  });

  it('refuses other declared types, even with PDF content', async () => {
    expect(await isPdfFile(file('%PDF-1.7', 'clip.mp4', 'video/mp4'))).toBe(false);
  });

  it('accepts an untyped .pdf file when the content is a PDF', async () => {
    expect(await isPdfFile(file('%PDF-1.4', 'scan.PDF', ''))).toBe(true);
  });
});

describe('uploadDocument', () => {
  it('refuses without a signed-in session before anything is sent', async () => {
    const { uploadDocument, documentMessages } = await import('./documents');
    const pdf = new File(['%PDF-1.7'], 'wissen.pdf', { type: 'application/pdf' });
    await expect(uploadDocument(pdf)).rejects.toThrow(documentMessages.notAuthenticated);
    expect(documentMessages.notAuthenticated).toBe('User not authenticated');
  });
});
