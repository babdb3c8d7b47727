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

from ..models.template_document_image_layer_fit import TemplateDocumentImageLayerFit
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.template_document_image_layer_box import TemplateDocumentImageLayerBox


T = TypeVar("T", bound="TemplateDocumentImageLayer")


@_attrs_define
class TemplateDocumentImageLayer:
    """
    Attributes:
        type_ (Literal['image']):
        source (str): background (the photo of the request), an uploaded asset id (ast_…), or an image variable
            {{name}}.
        box (TemplateDocumentImageLayerBox | Unset): Where the image goes; the whole canvas when unset.
        fit (TemplateDocumentImageLayerFit | Unset): cover crops to fill the box; contain fits inside it. Default:
            TemplateDocumentImageLayerFit.COVER.
        radius (float | Unset): Corner radius, fraction of the shorter side (0.5: a circle or pill). Default: 0.0.
        opacity (float | Unset): Opacity, 0 to 1. Default: 1.0.
    """

    type_: Literal["image"]
    source: str
    box: TemplateDocumentImageLayerBox | Unset = UNSET
    fit: TemplateDocumentImageLayerFit | Unset = TemplateDocumentImageLayerFit.COVER
    radius: float | Unset = 0.0
    opacity: float | Unset = 1.0

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        source = self.source

        box: dict[str, Any] | Unset = UNSET
        if not isinstance(self.box, Unset):
            box = self.box.to_dict()

        fit: str | Unset = UNSET
        if not isinstance(self.fit, Unset):
            fit = self.fit.value

        radius = self.radius

        opacity = self.opacity

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "source": source,
            }
        )
        if box is not UNSET:
            field_dict["box"] = box
        if fit is not UNSET:
            field_dict["fit"] = fit
        if radius is not UNSET:
            field_dict["radius"] = radius
        if opacity is not UNSET:
            field_dict["opacity"] = opacity

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.template_document_image_layer_box import (
            TemplateDocumentImageLayerBox,
        )

        d = dict(src_dict)
        type_ = cast(Literal["image"], d.pop("type"))
        if type_ != "image":
            raise ValueError(f"type must match const 'image', got '{type_}'")

        source = d.pop("source")

        _box = d.pop("box", UNSET)
        box: TemplateDocumentImageLayerBox | Unset
        if isinstance(_box, Unset):
            box = UNSET
        else:
            box = TemplateDocumentImageLayerBox.from_dict(_box)

        _fit = d.pop("fit", UNSET)
        fit: TemplateDocumentImageLayerFit | Unset
        if isinstance(_fit, Unset):
            fit = UNSET
        else:
            fit = TemplateDocumentImageLayerFit(_fit)

        radius = d.pop("radius", UNSET)

        opacity = d.pop("opacity", UNSET)

        template_document_image_layer = cls(
            type_=type_,
            source=source,
            box=box,
            fit=fit,
            radius=radius,
            opacity=opacity,
        )

        return template_document_image_layer
