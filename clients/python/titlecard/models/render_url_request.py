from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.render_url_request_format import RenderUrlRequestFormat
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.render_url_request_fields import RenderUrlRequestFields


T = TypeVar("T", bound="RenderUrlRequest")


@_attrs_define
class RenderUrlRequest:
    """
    Attributes:
        preset (str): An id such as pre_3SJQtzQudCCNw7msvpESdd.
        title (str):
        subtitle (str | Unset):
        image (str | Unset): An asset id (ast_…) or an https URL; default the preset's background.
        fields (RenderUrlRequestFields | Unset): Values of the variables of the preset's template (tpl_…); the link
            carries each as f.<name>.
        format_ (RenderUrlRequestFormat | Unset): png (default), jpeg or webp.
        expires_in (int | Unset): Seconds until the link stops working; none: until its key is revoked.
        key (str | Unset): Signing key to sign with; default your newest.
    """

    preset: str
    title: str
    subtitle: str | Unset = UNSET
    image: str | Unset = UNSET
    fields: RenderUrlRequestFields | Unset = UNSET
    format_: RenderUrlRequestFormat | Unset = UNSET
    expires_in: int | Unset = UNSET
    key: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        preset = self.preset

        title = self.title

        subtitle = self.subtitle

        image = self.image

        fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fields, Unset):
            fields = self.fields.to_dict()

        format_: str | Unset = UNSET
        if not isinstance(self.format_, Unset):
            format_ = self.format_.value

        expires_in = self.expires_in

        key = self.key

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "preset": preset,
                "title": title,
            }
        )
        if subtitle is not UNSET:
            field_dict["subtitle"] = subtitle
        if image is not UNSET:
            field_dict["image"] = image
        if fields is not UNSET:
            field_dict["fields"] = fields
        if format_ is not UNSET:
            field_dict["format"] = format_
        if expires_in is not UNSET:
            field_dict["expiresIn"] = expires_in
        if key is not UNSET:
            field_dict["key"] = key

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.render_url_request_fields import RenderUrlRequestFields

        d = dict(src_dict)
        preset = d.pop("preset")

        title = d.pop("title")

        subtitle = d.pop("subtitle", UNSET)

        image = d.pop("image", UNSET)

        _fields = d.pop("fields", UNSET)
        fields: RenderUrlRequestFields | Unset
        if isinstance(_fields, Unset):
            fields = UNSET
        else:
            fields = RenderUrlRequestFields.from_dict(_fields)

        _format_ = d.pop("format", UNSET)
        format_: RenderUrlRequestFormat | Unset
        if isinstance(_format_, Unset):
            format_ = UNSET
        else:
            format_ = RenderUrlRequestFormat(_format_)

        expires_in = d.pop("expiresIn", UNSET)

        key = d.pop("key", UNSET)

        render_url_request = cls(
            preset=preset,
            title=title,
            subtitle=subtitle,
            image=image,
            fields=fields,
            format_=format_,
            expires_in=expires_in,
            key=key,
        )

        return render_url_request
