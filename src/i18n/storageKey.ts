/** The localStorage key of the visitor's language choice ('de' or 'en'). */
export const LANGUAGE_STORAGE_KEY = 'language';
