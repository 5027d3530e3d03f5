"""`padax.vision.models`: Paddle's vision model zoo, with Paddle's constructors, layer names and weight layouts,
so `.pdparams` files move between Paddle and padax unchanged. `pretrained=True` reads Paddle's published weight
file from the local cache folder (`weights_dir()`: $PADAX_HOME/hapi/weights, else ~/.cache/padax/hapi/weights)."""
from padax.vision.models._utils import ConvNormActivation, weights_dir  # noqa: F401
from padax.vision.models.alexnet import AlexNet, alexnet  # noqa: F401
from padax.vision.models.densenet import (DenseNet, densenet121, densenet161, densenet169,  # noqa: F401
                                          densenet201, densenet264)
from padax.vision.models.googlenet import GoogLeNet, googlenet  # noqa: F401
from padax.vision.models.inceptionv3 import InceptionV3, inception_v3  # noqa: F401
from padax.vision.models.lenet import LeNet  # noqa: F401
from padax.vision.models.mobilenetv1 import MobileNetV1, mobilenet_v1  # noqa: F401
from padax.vision.models.mobilenetv2 import MobileNetV2, mobilenet_v2  # noqa: F401
from padax.vision.models.mobilenetv3 import (MobileNetV3Large, MobileNetV3Small, mobilenet_v3_large,  # noqa: F401
                                             mobilenet_v3_small)
from padax.vision.models.resnet import (ResNet, resnet18, resnet34, resnet50, resnet101, resnet152,  # noqa: F401
                                        resnext50_32x4d, resnext50_64x4d, resnext101_32x4d, resnext101_64x4d,
                                        resnext152_32x4d, resnext152_64x4d, wide_resnet50_2, wide_resnet101_2)
from padax.vision.models.shufflenetv2 import (ShuffleNetV2, shufflenet_v2_swish, shufflenet_v2_x0_5,  # noqa: F401
                                              shufflenet_v2_x0_25, shufflenet_v2_x0_33, shufflenet_v2_x1_0,
                                              shufflenet_v2_x1_5, shufflenet_v2_x2_0)
from padax.vision.models.squeezenet import SqueezeNet, squeezenet1_0, squeezenet1_1  # noqa: F401
from padax.vision.models.vgg import VGG, vgg11, vgg13, vgg16, vgg19  # noqa: F401
