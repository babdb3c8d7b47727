from __future__ import annotations

import json
from collections.abc import Mapping
from io import BytesIO
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..models.generate_image_body_aspect import GenerateImageBodyAspect
from ..models.generate_image_body_color_mode import GenerateImageBodyColorMode
from ..models.generate_image_body_file_format import GenerateImageBodyFileFormat
from ..models.generate_image_body_focus_type_0 import GenerateImageBodyFocusType0
from ..models.generate_image_body_font_type_0 import GenerateImageBodyFontType0
from ..models.generate_image_body_position_type_0 import GenerateImageBodyPositionType0
from ..models.generate_image_body_template_name import GenerateImageBodyTemplateName
from ..types import UNSET, File, FileTypes, Unset

if TYPE_CHECKING:
    from ..models.generate_image_body_fields import GenerateImageBodyFields
    from ..models.generate_image_body_focus_type_1 import GenerateImageBodyFocusType1
    from ..models.generate_image_body_font_type_1 import GenerateImageBodyFontType1
    from ..models.generate_image_body_font_type_2 import GenerateImageBodyFontType2
    from ..models.generate_image_body_position_type_1 import (
        GenerateImageBodyPositionType1,
    )


T = TypeVar("T", bound="GenerateImageBody")


@_attrs_define
class GenerateImageBody:
    """
    Attributes:
        title (str): Title, 1 to 200 characters. A line feed forces a line break.
        image (File | Unset): Background image: JPEG, PNG or WebP, judged by its bytes; at most 10485760 bytes (10 MB)
            and 64 megapixels. Required unless asset, imageUrl or a preset with a background gives one (exactly one of
            image, asset and imageUrl).
        asset (str | Unset): Background: an image uploaded with POST /assets, instead of image.
        image_url (str | Unset): Background: an http or https URL the server fetches (public addresses only, at most 10
            MB and 10 s), instead of image.
        preset (str | Unset): A preset: its options and background apply, and this request's own fields override them.
        subtitle (str | Unset): Subtitle, 1 to 200 characters.
        position (GenerateImageBodyPositionType0 | GenerateImageBodyPositionType1 | Unset): Where the text goes when no
            template is given: top, center, bottom, or {x, y} as fractions 0 to 1 of the canvas (the centre of the text
            block, kept inside the safe zone). Ignored when template is set.
        template (GenerateImageBodyTemplateName | str | Unset): Layout template; bottom-left when neither template nor
            position is given. auto: Titlecard picks bottom-left, left or right, whichever text box covers the least busy,
            least salient part of the cropped photo (the choice is in the render report). A template id (tpl_…, POST
            /templates): your own layout, its variables filled by fields.
        fields (GenerateImageBodyFields | Unset): With a template id: the values of the template's variables, a JSON
            object. Text variables take text; image variables an asset id (ast_…) or an http or https URL. title and
            subtitle are the request's own.
        focus (GenerateImageBodyFocusType0 | GenerateImageBodyFocusType1 | Unset): What the cover crop keeps in frame:
            auto (default: the centre, moved the least that keeps the faces, people, cats and dogs found in the photo
            whole), center, attention (the most salient region, libvips attention strategy), or {x, y}, fractions of the
            photo kept as near the centre as the crop allows. Default: GenerateImageBodyFocusType0.AUTO.
        color_mode (GenerateImageBodyColorMode | Unset): Text colour: auto picks white or black by WCAG contrast.
            Default: GenerateImageBodyColorMode.AUTO.
        color_hex (str | Unset): Text colour as #RGB or #RRGGBB; required when colorMode is custom, ignored otherwise.
        gradient (bool | Unset): Form text "true" or "false". Default true. Default: True.
        text_shadow (bool | Unset): Form text "true" or "false". Default true. Default: True.
        font_size (float | Unset): Title size in px, 24 to 120; chosen automatically when unset.
        font (GenerateImageBodyFontType0 | GenerateImageBodyFontType1 | GenerateImageBodyFontType2 | Unset): Font:
            {"system": name} or a bare name (one of the nine bundled families), or {"custom": fontId} (a font uploaded with
            POST /fonts). Characters it lacks come from the bundled fallback fonts.
        aspect (GenerateImageBodyAspect | Unset): og 1200×630, square 1080×1080, portrait 1080×1350. Default:
            GenerateImageBodyAspect.OG.
        file_format (GenerateImageBodyFileFormat | Unset): png (lossless), jpeg or webp (quality 85). Default:
            GenerateImageBodyFileFormat.PNG.
    """

    title: str
    image: File | Unset = UNSET
    asset: str | Unset = UNSET
    image_url: str | Unset = UNSET
    preset: str | Unset = UNSET
    subtitle: str | Unset = UNSET
    position: (
        GenerateImageBodyPositionType0 | GenerateImageBodyPositionType1 | Unset
    ) = UNSET
    template: GenerateImageBodyTemplateName | str | Unset = UNSET
    fields: GenerateImageBodyFields | Unset = UNSET
    focus: GenerateImageBodyFocusType0 | GenerateImageBodyFocusType1 | Unset = (
        GenerateImageBodyFocusType0.AUTO
    )
    color_mode: GenerateImageBodyColorMode | Unset = GenerateImageBodyColorMode.AUTO
    color_hex: str | Unset = UNSET
    gradient: bool | Unset = True
    text_shadow: bool | Unset = True
    font_size: float | Unset = UNSET
    font: (
        GenerateImageBodyFontType0
        | GenerateImageBodyFontType1
        | GenerateImageBodyFontType2
        | Unset
    ) = UNSET
    aspect: GenerateImageBodyAspect | Unset = GenerateImageBodyAspect.OG
    file_format: GenerateImageBodyFileFormat | Unset = GenerateImageBodyFileFormat.PNG
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.generate_image_body_font_type_1 import GenerateImageBodyFontType1

        title = self.title

        image: FileTypes | Unset = UNSET
        if not isinstance(self.image, Unset):
            image = self.image.to_tuple()

        asset = self.asset

        image_url = self.image_url

        preset = self.preset

        subtitle = self.subtitle

        position: dict[str, Any] | str | Unset
        if isinstance(self.position, Unset):
            position = UNSET
        elif isinstance(self.position, GenerateImageBodyPositionType0):
            position = self.position.value
        else:
            position = self.position.to_dict()

        template: str | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        elif isinstance(self.template, GenerateImageBodyTemplateName):
            template = self.template.value
        else:
            template = self.template

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        focus: dict[str, Any] | str | Unset
        if isinstance(self.focus, Unset):
            focus = UNSET
        elif isinstance(self.focus, GenerateImageBodyFocusType0):
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
        elif isinstance(self.font, GenerateImageBodyFontType0):
            font = self.font.value
        elif isinstance(self.font, GenerateImageBodyFontType1):
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
        if image is not UNSET:
            field_dict["image"] = image
        if asset is not UNSET:
            field_dict["asset"] = asset
        if image_url is not UNSET:
            field_dict["imageUrl"] = image_url
        if preset is not UNSET:
            field_dict["preset"] = preset
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

    def to_multipart(self) -> types.RequestFiles:
        from ..models.generate_image_body_font_type_1 import GenerateImageBodyFontType1

        files: types.RequestFiles = []

        files.append(("title", (None, str(self.title).encode(), "text/plain")))

        if not isinstance(self.image, Unset):
            files.append(("image", self.image.to_tuple()))

        if not isinstance(self.asset, Unset):
            files.append(("asset", (None, str(self.asset).encode(), "text/plain")))

        if not isinstance(self.image_url, Unset):
            files.append(
                ("imageUrl", (None, str(self.image_url).encode(), "text/plain"))
            )

        if not isinstance(self.preset, Unset):
            files.append(("preset", (None, str(self.preset).encode(), "text/plain")))

        if not isinstance(self.subtitle, Unset):
            files.append(
                ("subtitle", (None, str(self.subtitle).encode(), "text/plain"))
            )

        if not isinstance(self.position, Unset):
            if isinstance(self.position, GenerateImageBodyPositionType0):
                files.append(
                    (
                        "position",
                        (None, str(self.position.value).encode(), "text/plain"),
                    )
                )
            else:
                files.append(
                    (
                        "position",
                        (
                            None,
                            json.dumps(self.position.to_dict()).encode(),
                            "application/json",
                        ),
                    )
                )

        if not isinstance(self.template, Unset):
            if isinstance(self.template, GenerateImageBodyTemplateName):
                files.append(
                    (
                        "template",
                        (None, str(self.template.value).encode(), "text/plain"),
                    )
                )
            else:
                files.append(
                    ("template", (None, str(self.template).encode(), "text/plain"))
                )

        if not isinstance(self.fields, Unset):
            files.append(
                (
                    "fields",
                    (
                        None,
                        json.dumps(self.fields.to_dict()).encode(),
                        "application/json",
                    ),
                )
            )

        if not isinstance(self.focus, Unset):
            if isinstance(self.focus, GenerateImageBodyFocusType0):
                files.append(
                    ("focus", (None, str(self.focus.value).encode(), "text/plain"))
                )
            else:
                files.append(
                    (
                        "focus",
                        (
                            None,
                            json.dumps(self.focus.to_dict()).encode(),
                            "application/json",
                        ),
                    )
                )

        if not isinstance(self.color_mode, Unset):
            files.append(
                ("colorMode", (None, str(self.color_mode.value).encode(), "text/plain"))
            )

        if not isinstance(self.color_hex, Unset):
            files.append(
                ("colorHex", (None, str(self.color_hex).encode(), "text/plain"))
            )

        if not isinstance(self.gradient, Unset):
            files.append(
                (
                    "gradient",
                    (
                        None,
                        ("true" if self.gradient else "false").encode(),
                        "text/plain",
                    ),
                )
            )

        if not isinstance(self.text_shadow, Unset):
            files.append(
                (
                    "textShadow",
                    (
                        None,
                        ("true" if self.text_shadow else "false").encode(),
                        "text/plain",
                    ),
                )
            )

        if not isinstance(self.font_size, Unset):
            files.append(
                ("fontSize", (None, str(self.font_size).encode(), "text/plain"))
            )

        if not isinstance(self.font, Unset):
            if isinstance(self.font, GenerateImageBodyFontType0):
                files.append(
                    ("font", (None, str(self.font.value).encode(), "text/plain"))
                )
            elif isinstance(self.font, GenerateImageBodyFontType1):
                files.append(
                    (
                        "font",
                        (
                            None,
                            json.dumps(self.font.to_dict()).encode(),
                            "application/json",
                        ),
                    )
                )
            else:
                files.append(
                    (
                        "font",
                        (
                            None,
                            json.dumps(self.font.to_dict()).encode(),
                            "application/json",
                        ),
                    )
                )

        if not isinstance(self.aspect, Unset):
            files.append(
                ("aspect", (None, str(self.aspect.value).encode(), "text/plain"))
            )

        if not isinstance(self.file_format, Unset):
            files.append(
                (
                    "fileFormat",
                    (None, str(self.file_format.value).encode(), "text/plain"),
                )
            )

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.generate_image_body_fields import GenerateImageBodyFields
        from ..models.generate_image_body_focus_type_1 import (
            GenerateImageBodyFocusType1,
        )
        from ..models.generate_image_body_font_type_1 import GenerateImageBodyFontType1
        from ..models.generate_image_body_font_type_2 import GenerateImageBodyFontType2
        from ..models.generate_image_body_position_type_1 import (
            GenerateImageBodyPositionType1,
        )

        d = dict(src_dict)
        title = d.pop("title")

        _image = d.pop("image", UNSET)
        image: File | Unset
        if isinstance(_image, Unset):
            image = UNSET
        else:
            image = File(payload=BytesIO(_image))

        asset = d.pop("asset", UNSET)

        image_url = d.pop("imageUrl", UNSET)

        preset = d.pop("preset", UNSET)

        subtitle = d.pop("subtitle", UNSET)

        def _parse_position(
            data: object,
        ) -> GenerateImageBodyPositionType0 | GenerateImageBodyPositionType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                position_type_0 = GenerateImageBodyPositionType0(data)

                return position_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            position_type_1 = GenerateImageBodyPositionType1.from_dict(data)

            return position_type_1

        position = _parse_position(d.pop("position", UNSET))

        def _parse_template(
            data: object,
        ) -> GenerateImageBodyTemplateName | str | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                template_template_name = GenerateImageBodyTemplateName(data)

                return template_template_name
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(GenerateImageBodyTemplateName | str | Unset, data)

        template = _parse_template(d.pop("template", UNSET))

        _fields = d.pop("fields", UNSET)
        fields: GenerateImageBodyFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = GenerateImageBodyFields.from_dict(_fields)

        def _parse_focus(
            data: object,
        ) -> GenerateImageBodyFocusType0 | GenerateImageBodyFocusType1 | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                focus_type_0 = GenerateImageBodyFocusType0(data)

                return focus_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            focus_type_1 = GenerateImageBodyFocusType1.from_dict(data)

            return focus_type_1

        focus = _parse_focus(d.pop("focus", UNSET))

        _color_mode = d.pop("colorMode", UNSET)
        color_mode: GenerateImageBodyColorMode | Unset
        if isinstance(_color_mode, Unset):
            color_mode = UNSET
        else:
            color_mode = GenerateImageBodyColorMode(_color_mode)

        color_hex = d.pop("colorHex", UNSET)

        gradient = d.pop("gradient", UNSET)

        text_shadow = d.pop("textShadow", UNSET)

        font_size = d.pop("fontSize", UNSET)

        def _parse_font(
            data: object,
        ) -> (
            GenerateImageBodyFontType0
            | GenerateImageBodyFontType1
            | GenerateImageBodyFontType2
            | Unset
        ):
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                font_type_0 = GenerateImageBodyFontType0(data)

                return font_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                font_type_1 = GenerateImageBodyFontType1.from_dict(data)

                return font_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            font_type_2 = GenerateImageBodyFontType2.from_dict(data)

            return font_type_2

        font = _parse_font(d.pop("font", UNSET))

        _aspect = d.pop("aspect", UNSET)
        aspect: GenerateImageBodyAspect | Unset
        if isinstance(_aspect, Unset):
            aspect = UNSET
        else:
            aspect = GenerateImageBodyAspect(_aspect)

        _file_format = d.pop("fileFormat", UNSET)
        file_format: GenerateImageBodyFileFormat | Unset
        if isinstance(_file_format, Unset):
            file_format = UNSET
        else:
            file_format = GenerateImageBodyFileFormat(_file_format)

        generate_image_body = cls(
            title=title,
            image=image,
            asset=asset,
            image_url=image_url,
            preset=preset,
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

        generate_image_body.additional_properties = d
        return generate_image_body

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
