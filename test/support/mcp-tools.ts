/** The tools every Titlecard MCP server lists, sorted by name (both transports, both backends). */
export const TOOL_NAMES = [
  'card_image',
  'check_layout',
  'check_link_preview',
  'create_render_url',
  'delete_image',
  'generate_image',
  'get_batch',
  'get_template',
  'get_usage',
  'link_preview_mockup',
  'list_images',
  'list_presets',
  'list_templates',
  'preview_card',
  'start_batch',
  'validate_token',
];
