// The fields the engine reads, declared so the type checker does not infer a type from the
// 1.3 MB JSON file (that alone added ~3 s to every type check). The compiled bundles keep only
// these fields (PACKAGE_DATA_FIELDS in scripts/run.mjs; a test holds the two lists equal).
declare module 'emoji-datasource/emoji.json' {
  const emoji: readonly {
    unified: string;
    short_name: string;
    short_names: string[];
    has_img_google: boolean;
    has_img_twitter: boolean;
  }[];
  export default emoji;
}
