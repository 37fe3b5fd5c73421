// What an image adds to its base: the sizes of its layers above the base's, from `podman history`
// (newest first). Prints one line: the image, its own size, and its total.
//   node scripts/containers/image-size.mjs <image> <layers in the base>
import { execFileSync } from 'node:child_process';

const [image, baseLayers] = process.argv.slice(2);
const history = JSON.parse(
  execFileSync('podman', ['history', '--format', 'json', image], { encoding: 'utf8' }),
);
// Layers that change no file (ENV, LABEL, USER…) have size 0; the base's are the oldest ones.
const layers = history.filter((h) => h.size > 0).reverse();
const own = layers.slice(Number(baseLayers)).reduce((sum, h) => sum + h.size, 0);
const total = layers.reduce((sum, h) => sum + h.size, 0);
const mb = (bytes) => `${(bytes / 1e6).toFixed(1)} MB`;
console.log(`${image}: ${mb(own)} of its own, ${mb(total)} in all`);
