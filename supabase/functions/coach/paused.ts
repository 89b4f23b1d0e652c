/**
 * The coach's answer once the day's spend cap is reached: an ordinary German reply, so the coach
 * page shows (and speaks) it like any other answer and nothing looks broken.
 */
import { guardMessages } from '../_shared/guard.ts';

export const PAUSED_ANSWER: string = guardMessages.paused;
/** The `model` of the paused answer, so a client can tell it from the model's own words. */
export const PAUSED_MODEL = 'paused-for-today';
