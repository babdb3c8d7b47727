from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.check_layout_body_aspect import CheckLayoutBodyAspect
from ..models.check_layout_body_color_mode import CheckLayoutBodyColorMode
from ..models.check_layout_body_file_format import CheckLayoutBodyFileFormat
from ..models.check_layout_body_focus_type_0 import CheckLayoutBodyFocusType0
from ..models.check_layout_body_font_type_0 import CheckLayoutBodyFontType0
from ..models.check_layout_body_position_type_0 import CheckLayoutBodyPositionType0
from ..models.check_layout_body_template_name import CheckLayoutBodyTemplateName
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.check_layout_body_fields import CheckLayoutBodyFields
    from ..models.check_layout_body_focus_type_1 import CheckLayoutBodyFocusType1
    from ..models.check_layout_body_font_type_1 import CheckLayoutBodyFontType1
    from ..models.check_layout_body_font_type_2 import CheckLayoutBodyFontType2
    from ..models.check_layout_body_position_type_1 import CheckLayoutBodyPositionType1


T = TypeVar("T", bound="CheckLayoutBody")


@_attrs_define
class CheckLayoutBody:
    """
    Attributes:
        title (str): Title, 1 to 200 characters. A line feed forces a line break.
        subtitle (str | Unset): Subtitle, 1 to 200 characters.
        position (CheckLayoutBodyPositionType0 | CheckLayoutBodyPositionType1 | Unset): Where the text goes when no
            template is given: top, center, bottom, or {x, y} as fractions 0 to 1 of the canvas (the centre of the text
            block, kept inside the safe zone). Ignored when template is set.
        template (CheckLayoutBodyTemplateName | str | Unset): Layout template; bottom-left when neither template nor
            position is given. auto: Titlecard picks bottom-left, left or right, whichever text box covers the least busy,
            least salient part of the cropped photo (the choice is in the render report). A template id (tpl_…, POST
            /templates): your own layout, its variables filled by fields.
        fields (CheckLayoutBodyFields | Unset): With a template id: the values of the template's variables, a JSON
            object. Text variables take text; image variables an asset id (ast_…) or an http or https URL. title and
            subtitle are the request's own.
        focus (CheckLayoutBodyFocusType0 | CheckLayoutBodyFocusType1 | Unset): What the cover crop keeps in frame: auto
            (default: the centre, moved the least that keeps the faces, people, cats and dogs found in the photo whole),
            center, attention (the most salient region, libvips attention strategy), or {x, y}, fractions of the photo kept
            as near the centre as the crop allows. Default: CheckLayoutBodyFocusType0.AUTO.
        color_mode (CheckLayoutBodyColorMode | Unset): Text colour: auto picks white or black by WCAG contrast. Default:
            CheckLayoutBodyColorMode.AUTO.
        color_hex (str | Unset): Text colour as #RGB or #RRGGBB; required when colorMode is custom, ignored otherwise.
        gradient (bool | Unset): Gradient overlay behind the text, coloured from the photo. Default: True.
        text_shadow (bool | Unset): Soft shadow under the text. Default: True.
        font_size (float | Unset): Title size in px, 24 to 120; chosen automatically when unset.
        font (CheckLayoutBodyFontType0 | CheckLayoutBodyFontType1 | CheckLayoutBodyFontType2 | Unset): Font: {"system":
            name} or a bare name (one of the nine bundled families), or {"custom": fontId} (a font uploaded with POST
            /fonts). Characters it lacks come from the bundled fallback fonts.
        aspect (CheckLayoutBodyAspect | Unset): og 1200×630, square 1080×1080, portrait 1080×1350. Default:
            CheckLayoutBodyAspect.OG.
        file_format (CheckLayoutBodyFileFormat | Unset): png (lossless), jpeg or webp (quality 85). Default:
            CheckLayoutBodyFileFormat.PNG.
    """

    title: str
    subtitle: str | Unset = UNSET
    position: CheckLayoutBodyPositionType0 | CheckLayoutBodyPositionType1 | Unset = (
        UNSET
    )
    template: CheckLayoutBodyTemplateName | str | Unset = UNSET
    fields: CheckLayoutBodyFields | Unset = UNSET
    focus: CheckLayoutBodyFocusType0 | CheckLayoutBodyFocusType1 | Unset = (
        CheckLayoutBodyFocusType0.AUTO
    )
    color_mode: CheckLayoutBodyColorMode | Unset = CheckLayoutBodyColorMode.AUTO
    color_hex: str | Unset = UNSET
    gradient: bool | Unset = True
    text_shadow: bool | Unset = True
    font_size: float | Unset = UNSET
    font: (
        CheckLayoutBodyFontType0
        | CheckLayoutBodyFontType1
        | CheckLayoutBodyFontType2
        | Unset
    ) = UNSET
    aspect: CheckLayoutBodyAspect | Unset = CheckLayoutBodyAspect.OG
    file_format: CheckLayoutBodyFileFormat | Unset = CheckLayoutBodyFileFormat.PNG
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.check_layout_body_font_type_1 import CheckLayoutBodyFontType1

        title = self.title

        subtitle = self.subtitle

        position: dict[str, Any] | str | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, CheckLayoutBodyPositionType0):
            position = self.position.value
        else:
            position = self.position.to_dict()

        template: str | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        elif isinstance(self.template, CheckLayoutBodyTemplateName):
            template = self.template.value
        else:
            template = self.template

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        focus: dict[str, Any] | str | Unset
        if isinstance(self.focus, Unset):
            focus = UNSET
        elif isinstance(self.focus, CheckLayoutBodyFocusType0):
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
        elif isinstance(self.font, CheckLayoutBodyFontType0):
            font = self.font.value
        elif isinstance(self.font, CheckLayoutBodyFontType1):
            font = self.font.to_dict()
        else:
            font = self.font.to_dict()

        aspect: str | Unset = UNSET
        if not isinstance(self.aspect, Unset):
            aspect = self.aspect.value

        file_format: str | Unset = UNSET
        if not isinstance(self.file_format, Unset):
            file_format = self.file_format.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "title": title,
            }
        )
        if subtitle is not UNSET:
            field_dict["subtitle"] = subtitle
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

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.check_layout_body_fields import CheckLayoutBodyFields
        from ..models.check_layout_body_focus_type_1 import CheckLayoutBodyFocusType1
        from ..models.check_layout_body_font_type_1 import CheckLayoutBodyFontType1
        from ..models.check_layout_body_font_type_2 import CheckLayoutBodyFontType2
        from ..models.check_layout_body_position_type_1 import (
            CheckLayoutBodyPositionType1,
        )

        d = dict(src_dict)
        title = d.pop("title")

        subtitle = d.pop("subtitle", UNSET)

        def _parse_position(
            data: object,
        ) -> CheckLayoutBodyPositionType0 | CheckLayoutBodyPositionType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                position_type_0 = CheckLayoutBodyPositionType0(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            position_type_1 = CheckLayoutBodyPositionType1.from_dict(data)

            return position_type_1

        position = _parse_position(d.pop("position", UNSET))

        def _parse_template(data: object) -> CheckLayoutBodyTemplateName | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                template_template_name = CheckLayoutBodyTemplateName(data)

                return template_template_name
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheckLayoutBodyTemplateName | str | Unset, data)

        template = _parse_template(d.pop("template", UNSET))

        _fields = d.pop("fields", UNSET)
        fields: CheckLayoutBodyFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = CheckLayoutBodyFields.from_dict(_fields)

        def _parse_focus(
            data: object,
        ) -> CheckLayoutBodyFocusType0 | CheckLayoutBodyFocusType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                focus_type_0 = CheckLayoutBodyFocusType0(data)

                return focus_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            focus_type_1 = CheckLayoutBodyFocusType1.from_dict(data)

            return focus_type_1

        focus = _parse_focus(d.pop("focus", UNSET))

        _color_mode = d.pop("colorMode", UNSET)
        color_mode: CheckLayoutBodyColorMode | Unset
        if isinstance(_color_mode, Unset):
            color_mode = UNSET
        else:
            color_mode = CheckLayoutBodyColorMode(_color_mode)

        color_hex = d.pop("colorHex", UNSET)

        gradient = d.pop("gradient", UNSET)

        text_shadow = d.pop("textShadow", UNSET)

        font_size = d.pop("fontSize", UNSET)

        def _parse_font(
            data: object,
        ) -> (
            CheckLayoutBodyFontType0
            | CheckLayoutBodyFontType1
            | CheckLayoutBodyFontType2
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                font_type_0 = CheckLayoutBodyFontType0(data)

                return font_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                font_type_1 = CheckLayoutBodyFontType1.from_dict(data)

                return font_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            font_type_2 = CheckLayoutBodyFontType2.from_dict(data)

            return font_type_2

        font = _parse_font(d.pop("font", UNSET))

        _aspect = d.pop("aspect", UNSET)
        aspect: CheckLayoutBodyAspect | Unset
        if isinstance(_aspect, Unset):
            aspect = UNSET
        else:
            aspect = CheckLayoutBodyAspect(_aspect)

        _file_format = d.pop("fileFormat", UNSET)
        file_format: CheckLayoutBodyFileFormat | Unset
        if isinstance(_file_format, Unset):
            file_format = UNSET
        else:
            file_format = CheckLayoutBodyFileFormat(_file_format)

        check_layout_body = cls(
            title=title,
            subtitle=subtitle,
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
        )

        check_layout_body.additional_properties = d
        return check_layout_body

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
