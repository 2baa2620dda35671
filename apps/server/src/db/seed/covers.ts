// The drawing moved to the covers module, which also draws covers for new stories;
// the seed keeps importing it from here.
export { COVER_HEIGHT, COVER_WIDTH, renderCover } from '../../modules/covers/art.ts';
