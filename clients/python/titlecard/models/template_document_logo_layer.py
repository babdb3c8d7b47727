from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_document_logo_layer_box import TemplateDocumentLogoLayerBox


T = TypeVar("T", bound="TemplateDocumentLogoLayer")


@_attrs_define
class TemplateDocumentLogoLayer:
    """The preset's logo; nothing when the request has none. Text layers keep out of it.

    Attributes:
        type_ (Literal['logo']):
        box (TemplateDocumentLogoLayerBox | Unset): Where the logo goes (contained); the preset's corner when unset.
    """

    type_: Literal["logo"]
    box: TemplateDocumentLogoLayerBox | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.box, Unset):
            box = self.box.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )
        if box is not UNSET:
            field_dict["box"] = box

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_document_logo_layer_box import (
            TemplateDocumentLogoLayerBox,
        )

        d = dict(src_dict)
        type_ = cast(Literal["logo"], d.pop("type"))
        if type_ != "logo":
            raise ValueError(f"type must match const 'logo', got '{type_}'")

        _box = d.pop("box", UNSET)
        box: TemplateDocumentLogoLayerBox | Unset
        if isinstance(_box, Unset):
            box = UNSET
        else:
            box = TemplateDocumentLogoLayerBox.from_dict(_box)

        template_document_logo_layer = cls(
            type_=type_,
            box=box,
        )

        return template_document_logo_layer
