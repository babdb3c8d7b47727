from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.preset_request_aspect import PresetRequestAspect
from ..models.preset_request_color_mode import PresetRequestColorMode
from ..models.preset_request_file_format import PresetRequestFileFormat
from ..models.preset_request_focus_type_0 import PresetRequestFocusType0
from ..models.preset_request_font_type_0 import PresetRequestFontType0
from ..models.preset_request_position_type_0 import PresetRequestPositionType0
from ..models.preset_request_template_name import PresetRequestTemplateName
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.preset_request_fields import PresetRequestFields
    from ..models.preset_request_focus_type_1 import PresetRequestFocusType1
    from ..models.preset_request_font_type_1 import PresetRequestFontType1
    from ..models.preset_request_font_type_2 import PresetRequestFontType2
    from ..models.preset_request_logo_type_0 import PresetRequestLogoType0
    from ..models.preset_request_position_type_1 import PresetRequestPositionType1


T = TypeVar("T", bound="PresetRequest")


@_attrs_define
class PresetRequest:
    """
    Attributes:
        name (str): Name, 1 to 100 characters.
        position (PresetRequestPositionType0 | PresetRequestPositionType1 | Unset): Where the text goes when no template
            is given: top, center, bottom, or {x, y} as fractions 0 to 1 of the canvas (the centre of the text block, kept
            inside the safe zone). Ignored when template is set.
        template (PresetRequestTemplateName | str | Unset): Layout template; bottom-left when neither template nor
            position is given. auto: Titlecard picks bottom-left, left or right, whichever text box covers the least busy,
            least salient part of the cropped photo (the choice is in the render report). A template id (tpl_…, POST
            /templates): your own layout, its variables filled by fields.
        fields (PresetRequestFields | Unset): With a template id: the values of the template's variables, a JSON object.
            Text variables take text; image variables an asset id (ast_…) or an http or https URL. title and subtitle are
            the request's own.
        focus (PresetRequestFocusType0 | PresetRequestFocusType1 | Unset): What the cover crop keeps in frame: auto
            (default: the centre, moved the least that keeps the faces, people, cats and dogs found in the photo whole),
            center, attention (the most salient region, libvips attention strategy), or {x, y}, fractions of the photo kept
            as near the centre as the crop allows.
        color_mode (PresetRequestColorMode | Unset): Text colour: auto picks white or black by WCAG contrast.
        color_hex (str | Unset): Text colour as #RGB or #RRGGBB; required when colorMode is custom, ignored otherwise.
        gradient (bool | Unset): Gradient overlay behind the text, coloured from the photo.
        text_shadow (bool | Unset): Soft shadow under the text.
        font_size (float | Unset): Title size in px, 24 to 120; chosen automatically when unset.
        font (PresetRequestFontType0 | PresetRequestFontType1 | PresetRequestFontType2 | Unset): Font: {"system": name}
            or a bare name (one of the nine bundled families), or {"custom": fontId} (a font uploaded with POST /fonts).
            Characters it lacks come from the bundled fallback fonts.
        aspect (PresetRequestAspect | Unset): og 1200×630, square 1080×1080, portrait 1080×1350.
        file_format (PresetRequestFileFormat | Unset): png (lossless), jpeg or webp (quality 85).
        background (None | str | Unset): Default background: an image uploaded with POST /assets; a request or link may
            give its own.
        logo (None | PresetRequestLogoType0 | Unset):
    """

    name: str
    position: PresetRequestPositionType0 | PresetRequestPositionType1 | Unset = UNSET
    template: PresetRequestTemplateName | str | Unset = UNSET
    fields: PresetRequestFields | Unset = UNSET
    focus: PresetRequestFocusType0 | PresetRequestFocusType1 | Unset = UNSET
    color_mode: PresetRequestColorMode | Unset = UNSET
    color_hex: str | Unset = UNSET
    gradient: bool | Unset = UNSET
    text_shadow: bool | Unset = UNSET
    font_size: float | Unset = UNSET
    font: (
        PresetRequestFontType0 | PresetRequestFontType1 | PresetRequestFontType2 | Unset
    ) = UNSET
    aspect: PresetRequestAspect | Unset = UNSET
    file_format: PresetRequestFileFormat | Unset = UNSET
    background: None | str | Unset = UNSET
    logo: None | PresetRequestLogoType0 | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.preset_request_font_type_1 import PresetRequestFontType1
        from ..models.preset_request_logo_type_0 import PresetRequestLogoType0

        name = self.name

        position: dict[str, Any] | str | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, PresetRequestPositionType0):
            position = self.position.value
        else:
            position = self.position.to_dict()

        template: str | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        elif isinstance(self.template, PresetRequestTemplateName):
            template = self.template.value
        else:
            template = self.template

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        focus: dict[str, Any] | str | Unset
        if isinstance(self.focus, Unset):
            focus = UNSET
        elif isinstance(self.focus, PresetRequestFocusType0):
            focus = self.focus.value
        else:
            focus = self.focus.to_dict()

        color_mode: str | Unset = UNSET
        if not isinstance(self.color_mode, Unset):
            color_mode = self.color_mode.value

        color_hex = self.color_hex

        gradient = self.gradient

        text_shadow = self.text_shadow

        font_size = self.font_size

        font: dict[str, Any] | str | Unset
        if isinstance(self.font, Unset):
            font = UNSET
        elif isinstance(self.font, PresetRequestFontType0):
            font = self.font.value
        elif isinstance(self.font, PresetRequestFontType1):
            font = self.font.to_dict()
        else:
            font = self.font.to_dict()

        aspect: str | Unset = UNSET
        if not isinstance(self.aspect, Unset):
            aspect = self.aspect.value

        file_format: str | Unset = UNSET
        if not isinstance(self.file_format, Unset):
            file_format = self.file_format.value

        background: None | str | Unset
        if isinstance(self.background, Unset):
            background = UNSET
        else:
            background = self.background

        logo: dict[str, Any] | None | Unset
        if isinstance(self.logo, Unset):
            logo = UNSET
        elif isinstance(self.logo, PresetRequestLogoType0):
            logo = self.logo.to_dict()
        else:
            logo = self.logo

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if position is not UNSET:
            field_dict["position"] = position
        if template is not UNSET:
            field_dict["template"] = template
        if fields is not UNSET:
            field_dict["fields"] = fields
        if focus is not UNSET:
            field_dict["focus"] = focus
        if color_mode is not UNSET:
            field_dict["colorMode"] = color_mode
        if color_hex is not UNSET:
            field_dict["colorHex"] = color_hex
        if gradient is not UNSET:
            field_dict["gradient"] = gradient
        if text_shadow is not UNSET:
            field_dict["textShadow"] = text_shadow
        if font_size is not UNSET:
            field_dict["fontSize"] = font_size
        if font is not UNSET:
            field_dict["font"] = font
        if aspect is not UNSET:
            field_dict["aspect"] = aspect
        if file_format is not UNSET:
            field_dict["fileFormat"] = file_format
        if background is not UNSET:
            field_dict["background"] = background
        if logo is not UNSET:
            field_dict["logo"] = logo

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preset_request_fields import PresetRequestFields
        from ..models.preset_request_focus_type_1 import PresetRequestFocusType1
        from ..models.preset_request_font_type_1 import PresetRequestFontType1
        from ..models.preset_request_font_type_2 import PresetRequestFontType2
        from ..models.preset_request_logo_type_0 import PresetRequestLogoType0
        from ..models.preset_request_position_type_1 import PresetRequestPositionType1

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_position(
            data: object,
        ) -> PresetRequestPositionType0 | PresetRequestPositionType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                position_type_0 = PresetRequestPositionType0(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            position_type_1 = PresetRequestPositionType1.from_dict(data)

            return position_type_1

        position = _parse_position(d.pop("position", UNSET))

        def _parse_template(data: object) -> PresetRequestTemplateName | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                template_template_name = PresetRequestTemplateName(data)

                return template_template_name
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(PresetRequestTemplateName | str | Unset, data)

        template = _parse_template(d.pop("template", UNSET))

        _fields = d.pop("fields", UNSET)
        fields: PresetRequestFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = PresetRequestFields.from_dict(_fields)

        def _parse_focus(
            data: object,
        ) -> PresetRequestFocusType0 | PresetRequestFocusType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                focus_type_0 = PresetRequestFocusType0(data)

                return focus_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            focus_type_1 = PresetRequestFocusType1.from_dict(data)

            return focus_type_1

        focus = _parse_focus(d.pop("focus", UNSET))

        _color_mode = d.pop("colorMode", UNSET)
        color_mode: PresetRequestColorMode | Unset
        if isinstance(_color_mode, Unset):
            color_mode = UNSET
        else:
            color_mode = PresetRequestColorMode(_color_mode)

        color_hex = d.pop("colorHex", UNSET)

        gradient = d.pop("gradient", UNSET)

        text_shadow = d.pop("textShadow", UNSET)

        font_size = d.pop("fontSize", UNSET)

        def _parse_font(
            data: object,
        ) -> (
            PresetRequestFontType0
            | PresetRequestFontType1
            | PresetRequestFontType2
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                font_type_0 = PresetRequestFontType0(data)

                return font_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                font_type_1 = PresetRequestFontType1.from_dict(data)

                return font_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            font_type_2 = PresetRequestFontType2.from_dict(data)

            return font_type_2

        font = _parse_font(d.pop("font", UNSET))

        _aspect = d.pop("aspect", UNSET)
        aspect: PresetRequestAspect | Unset
        if isinstance(_aspect, Unset):
            aspect = UNSET
        else:
            aspect = PresetRequestAspect(_aspect)

        _file_format = d.pop("fileFormat", UNSET)
        file_format: PresetRequestFileFormat | Unset
        if isinstance(_file_format, Unset):
            file_format = UNSET
        else:
            file_format = PresetRequestFileFormat(_file_format)

        def _parse_background(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        background = _parse_background(d.pop("background", UNSET))

        def _parse_logo(data: object) -> None | PresetRequestLogoType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                logo_type_0 = PresetRequestLogoType0.from_dict(data)

                return logo_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PresetRequestLogoType0 | Unset, data)

        logo = _parse_logo(d.pop("logo", UNSET))

        preset_request = cls(
            name=name,
            position=position,
            template=template,
            fields=fields,
            focus=focus,
            color_mode=color_mode,
            color_hex=color_hex,
            gradient=gradient,
            text_shadow=text_shadow,
            font_size=font_size,
            font=font,
            aspect=aspect,
            file_format=file_format,
            background=background,
            logo=logo,
        )

        return preset_request
