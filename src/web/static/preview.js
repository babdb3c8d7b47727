// A live preview's answer shown: the picture (a JPEG Blob) replaces the one in `img` once it has
// loaded, the previous object URL released then and never before; `status` says it is done. Shared
// by the playground and the template editor.
export function showPreview(img, status, blob) {
  const url = URL.createObjectURL(blob);
  const previous = img.src;
  img.addEventListener(
    'load',
    () => {
      if (previous.startsWith('blob:')) URL.revokeObjectURL(previous);
      img.hidden = false;
      status.textContent = 'Preview updated. It is not stored and uses no quota.';
    },
    { once: true },
  );
  img.src = url;
}
