from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.template_document import TemplateDocument


T = TypeVar("T", bound="Template")


@_attrs_define
class Template:
    """
    Attributes:
        id (str): A built-in name (bottom-left, left, right, split) or a template id tpl_….
        name (str):
        version (int): 1 at creation, one more on every edit; 1 for a built-in.
        built_in (bool): True for the four built-ins, which are read-only.
        document (TemplateDocument):
        created_at (None | str): ISO 8601; null for a built-in.
        updated_at (None | str): ISO 8601; null for a built-in.
    """

    id: str
    name: str
    version: int
    built_in: bool
    document: TemplateDocument
    created_at: None | str
    updated_at: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        version = self.version

        built_in = self.built_in

        document = self.document.to_dict()

        created_at: None | str
        created_at = self.created_at

        updated_at: None | str
        updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "version": version,
                "builtIn": built_in,
                "document": document,
                "createdAt": created_at,
                "updatedAt": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_document import TemplateDocument

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        version = d.pop("version")

        built_in = d.pop("builtIn")

        document = TemplateDocument.from_dict(d.pop("document"))

        def _parse_created_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_at = _parse_created_at(d.pop("createdAt"))

        def _parse_updated_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        updated_at = _parse_updated_at(d.pop("updatedAt"))

        template = cls(
            id=id,
            name=name,
            version=version,
            built_in=built_in,
            document=document,
            created_at=created_at,
            updated_at=updated_at,
        )

        return template
