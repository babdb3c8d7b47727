from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.preview_report_tags_type_0_meta import PreviewReportTagsType0Meta


T = TypeVar("T", bound="PreviewReportTagsType0")


@_attrs_define
class PreviewReportTagsType0:
    """
    Attributes:
        title (None | str): The <title> element.
        description (None | str): <meta name="description">.
        canonical (None | str): <link rel="canonical">.
        meta (PreviewReportTagsType0Meta): Every og:* and twitter:* tag, by name, the first of each.
    """

    title: None | str
    description: None | str
    canonical: None | str
    meta: PreviewReportTagsType0Meta

    def to_dict(self) -> dict[str, Any]:
        title: None | str
        title = self.title

        description: None | str
        description = self.description

        canonical: None | str
        canonical = self.canonical

        meta = self.meta.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "title": title,
                "description": description,
                "canonical": canonical,
                "meta": meta,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.preview_report_tags_type_0_meta import PreviewReportTagsType0Meta

        d = dict(src_dict)

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_canonical(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        canonical = _parse_canonical(d.pop("canonical"))

        meta = PreviewReportTagsType0Meta.from_dict(d.pop("meta"))

        preview_report_tags_type_0 = cls(
            title=title,
            description=description,
            canonical=canonical,
            meta=meta,
        )

        return preview_report_tags_type_0
