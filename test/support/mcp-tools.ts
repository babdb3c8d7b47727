/** The tools every Titlecard MCP server lists, sorted by name (both transports, both backends). */
export const TOOL_NAMES = [
  'check_layout',
  'delete_image',
  'generate_image',
  'get_usage',
  'list_images',
  'validate_token',
];
