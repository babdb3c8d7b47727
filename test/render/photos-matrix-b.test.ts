/** The photo matrix (test/support/photo-matrix.ts), the last two photographs and the plain white and black backgrounds. */
import { BACKGROUNDS, photoMatrix } from '../support/photo-matrix.js';

photoMatrix(BACKGROUNDS.slice(5));
