/** One title per script (and emoji), shared by the international tests and the reference images. */
export const SCRIPT_SAMPLES: Record<string, string> = {
  latin: 'Typographers kern AVATAR, Wave and “quotes” — ﬁne ligatures',
  cyrillic: 'Съешь же ещё этих мягких французских булок',
  greek: 'Ταχίστη αλώπηξ βαφής ψημένη γη, δρασκελίζει',
  arabic: 'مرحبا بالعالم: كيف نكتب عناوين جميلة',
  hebrew: 'שלום עולם: איך כותבים כותרות יפות',
  devanagari: 'हिन्दी में सुंदर शीर्षक कैसे लिखें',
  thai: 'ภาษาไทยไม่มีการเว้นวรรคระหว่างคำในประโยค',
  chinese: '我们如何把构建时间缩短一半，并且更稳定。',
  japanese: '新しいリリースのお知らせ：今すぐ試してください。',
  korean: '한국어 제목도 아름답게 조판됩니다',
  emoji: '👍🏽👨‍👩‍👧🇫🇷❤️😀🚀🧑🏾‍💻🏳️‍🌈',
};
